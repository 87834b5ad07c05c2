"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/components/forms/action-result";
import { SecretReveal } from "@/components/forms/secret-reveal";
import { useHydrated } from "@/components/forms/use-hydrated";

export interface FieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "select" | "datetime-local" | "hidden" | "checkboxes" | "textarea";
  options?: readonly string[];
  /** what a select shows for an option (its value is sent); the value itself when absent */
  optionLabels?: Readonly<Record<string, string>>;
  placeholder?: string;
  hint?: string;
  defaultValue?: string;
  required?: boolean;
}

/** What a form's action may hand back: a secret to show once, a message. */
export interface FormOutcome {
  secret?: string;
  secretLabel?: string;
  message?: string;
}

// A small form for one server action: sends only its own fields as a plain object (the
// action zod-parses them), shows each field's error under it, and a one-time secret.
export function SimpleForm({
  action,
  fields,
  submitLabel,
  inline = false,
  testId,
  idPrefix = "f",
}: {
  action: (input: Record<string, string | string[]>) => Promise<ActionResult<FormOutcome | null>>;
  fields: FieldSpec[];
  submitLabel: string;
  inline?: boolean;
  testId?: string;
  /** for the element ids: needed when one page shows several forms with the same fields */
  idPrefix?: string;
}) {
  const router = useRouter();
  const [result, setResult] = useState<ActionResult<FormOutcome | null> | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const data = new FormData(formElement);
    const input: Record<string, string | string[]> = {};
    for (const field of fields) {
      if (field.type === "checkboxes") input[field.name] = data.getAll(field.name).map(String);
      else {
        const value = String(data.get(field.name) ?? "");
        if (value !== "") input[field.name] = value;
      }
    }
    setPending(true);
    const outcome = await action(input);
    setPending(false);
    setResult(outcome);
    if (outcome.ok) {
      formElement.reset();
      router.refresh();
    }
  }

  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <form onSubmit={onSubmit} className={inline ? "form-inline" : "form"} noValidate data-testid={testId}>
      {fields.map((field) => (
        <Field key={field.name} id={`${idPrefix}-${field.name}`} field={field} error={errors[field.name]} />
      ))}
      <div className="form-actions">
        <button type="submit" disabled={pending || !hydrated}>
          {pending ? "Working…" : submitLabel}
        </button>
      </div>
      {result && !result.ok && (
        <div role="alert" className="error">
          <p>{result.message}</p>
          {result.errors && (
            <ul>
              {result.errors.map((e, i) => (
                <li key={i}>{e.path ? `${e.path}: ${e.message}` : e.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {result?.ok && result.data?.message && (
        <p role="status" className="ok">
          {result.data.message}
        </p>
      )}
      {result?.ok && result.data?.secret && (
        <SecretReveal label={result.data.secretLabel ?? "Secret."} secret={result.data.secret} />
      )}
    </form>
  );
}

function Field({ id, field, error }: { id: string; field: FieldSpec; error: string | undefined }) {
  if (field.type === "hidden")
    return <input type="hidden" name={field.name} value={field.defaultValue ?? ""} />;
  const describedBy = error ? `${id}-error` : field.hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {field.type === "select" ? (
        <select
          id={id}
          name={field.name}
          defaultValue={field.defaultValue}
          aria-invalid={!!error}
          aria-describedby={describedBy}
        >
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {field.optionLabels?.[o] ?? o}
            </option>
          ))}
        </select>
      ) : field.type === "checkboxes" ? (
        <fieldset id={id} className="checks" aria-describedby={describedBy}>
          {(field.options ?? []).map((o) => (
            <label key={o} className="check">
              <input type="checkbox" name={field.name} value={o} /> {o}
            </label>
          ))}
        </fieldset>
      ) : field.type === "textarea" ? (
        <textarea
          id={id}
          name={field.name}
          rows={10}
          placeholder={field.placeholder}
          defaultValue={field.defaultValue}
          aria-invalid={!!error}
          aria-describedby={describedBy}
        />
      ) : (
        <input
          id={id}
          name={field.name}
          type={field.type ?? "text"}
          placeholder={field.placeholder}
          defaultValue={field.defaultValue}
          required={field.required}
          aria-invalid={!!error}
          aria-describedby={describedBy}
        />
      )}
      {field.hint && !error && (
        <small id={`${id}-hint`} className="muted">
          {field.hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </div>
  );
}
