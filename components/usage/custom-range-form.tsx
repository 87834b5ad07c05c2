"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { CustomWindow } from "@/lib/usage/read/custom-window";
import { useHydrated } from "@/components/forms/use-hydrated";

// From/to inputs for a custom range (in the browser's time zone, sent as UTC in the URL),
// and "Reset" back to the preset range. Dragging over the traffic chart fills the same URL.

/** "2026-11-25T10:05" in local time, what a datetime-local input holds */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

export function CustomRangeForm({
  window,
  from,
  to,
  hrefFor,
  resetHref,
}: {
  window: CustomWindow | null;
  /** the range shown now, for the inputs' first values */
  from: number;
  to: number;
  hrefFor: (window: CustomWindow) => string;
  resetHref: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const start = Date.parse(String(form.get("from") ?? ""));
    const end = Date.parse(String(form.get("to") ?? ""));
    // the server checks again (span, order, future); this only catches empty inputs early
    if (!Number.isFinite(start)) return setError("from: enter a date and time");
    if (!Number.isFinite(end)) return setError("to: enter a date and time");
    setError(null);
    router.push(hrefFor({ from: start, to: end }));
  };
  return (
    <form
      onSubmit={submit}
      data-testid="custom-range"
      style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}
    >
      <label>
        From
        <input type="datetime-local" name="from" defaultValue={localInput(from)} suppressHydrationWarning />
      </label>
      <label>
        To
        <input type="datetime-local" name="to" defaultValue={localInput(to)} suppressHydrationWarning />
      </label>
      <button type="submit" disabled={!hydrated}>
        Apply range
      </button>
      {window ? (
        <Link href={resetHref} data-testid="reset-range">
          Reset range
        </Link>
      ) : (
        <span className="muted">or drag across the traffic chart to zoom</span>
      )}
      {error ? (
        <span className="error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}
