"use client";

import { LIMIT_DEFAULTS } from "@/lib/shared/limit-types";

// The limit editor's two kinds of field: free text with a hint, and a choice whose empty
// option says what applies when it is left unset (inherited, or the default).

export function TextField(props: {
  field: string;
  label: string;
  hint: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  placeholder?: string;
}) {
  const id = `l-${props.field}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.field}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={!!props.error}
        aria-describedby={`${id}-msg`}
      />
      <small id={`${id}-msg`} className={props.error ? "error" : "muted"}>
        {props.error ?? props.hint}
      </small>
    </div>
  );
}

export function PickField(props: {
  field: string;
  label: string;
  options: readonly string[];
  value: string;
  onChange: (v: string) => void;
  error?: string;
  inheritedValue?: string;
}) {
  const { field } = props;
  return (
    <div className="field">
      <label htmlFor={`l-${field}`}>{props.label}</label>
      <select
        id={`l-${field}`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={!!props.error}
      >
        <option value="">
          {props.inheritedValue
            ? `inherit (${props.inheritedValue})`
            : field in LIMIT_DEFAULTS
              ? `default (${LIMIT_DEFAULTS[field as keyof typeof LIMIT_DEFAULTS]})`
              : "choose…"}
        </option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {props.error && <small className="error">{props.error}</small>}
    </div>
  );
}
