"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/components/forms/action-result";

// A destructive action asks first, in place: the first press arms it, the second (on a
// clearly labelled button) runs it; Escape or Cancel disarms it.
export function ConfirmButton({
  label,
  confirmLabel,
  question,
  action,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  action: () => Promise<ActionResult<unknown>>;
}) {
  const router = useRouter();
  const [armed, setArmed] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setPending(true);
    const result = await action();
    setPending(false);
    if (result.ok) {
      setArmed(false);
      router.refresh();
    } else setError(result.errors?.map((e) => `${e.path}: ${e.message}`).join("; ") || result.message);
  }

  if (!armed)
    return (
      <button type="button" className="secondary danger" onClick={() => setArmed(true)}>
        {label}
      </button>
    );
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => e.key === "Escape" && setArmed(false)}
    >
      <span>{question}</span>
      <button type="button" className="danger" disabled={pending} onClick={() => void run()} autoFocus>
        {pending ? "Working…" : confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setArmed(false)}>
        Cancel
      </button>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </span>
  );
}
