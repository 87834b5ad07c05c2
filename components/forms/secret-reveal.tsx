"use client";

import { useState } from "react";

// A secret shown once: it lives only in this component's props, is never stored, and is
// gone when the page is left or reloaded.
export function SecretReveal({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(secret).catch(() => undefined);
    setCopied(true);
  }
  return (
    <div className="secret" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it is shown only this once and cannot be read again.
      </p>
      <div className="secret-row">
        <code data-testid="secret-value">{secret}</code>
        <button type="button" className="secondary" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
