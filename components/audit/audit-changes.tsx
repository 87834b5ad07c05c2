"use client";

import { useEffect, useRef, useState } from "react";
import type { FieldChange } from "@/components/audit/field-diff";
import type { ActionResult } from "@/components/forms/action-result";

// An audit entry's changed fields, folded: the page sends how many there are, and the
// fields themselves are read when the reader unfolds them (an import's entry lists a whole
// tenant's; fifty of them sent with the page made it megabytes).

export type LoadChanges = (input: { id: string }) => Promise<ActionResult<FieldChange[]>>;

// folded and being read look the same: the status line is only seen while reading
type State =
  { kind: "unread" } | { kind: "loaded"; changes: FieldChange[] } | { kind: "failed"; message: string };

export function AuditChanges({ id, count, load }: { id: string; count: number; load: LoadChanges }) {
  const [state, setState] = useState<State>({ kind: "unread" });
  const details = useRef<HTMLDetailsElement>(null);
  const started = useRef(false);

  const fetchOnce = () => {
    if (started.current) return;
    started.current = true;
    load({ id }).then(
      (result) =>
        setState(
          result.ok ? { kind: "loaded", changes: result.data } : { kind: "failed", message: result.message },
        ),
      () => {
        started.current = false;
        setState({ kind: "failed", message: "The changes could not be read; fold and unfold to try again." });
      },
    );
  };

  // unfolded before the page was interactive: no toggle event came, read them now
  useEffect(() => {
    if (details.current?.open) fetchOnce();
  });

  return (
    <details
      ref={details}
      onToggle={(event) => {
        if (event.currentTarget.open) fetchOnce();
      }}
    >
      <summary>
        {count} field{count === 1 ? "" : "s"}
      </summary>
      {state.kind === "loaded" ? (
        <table className="field-diff" data-testid="field-diff">
          <tbody>
            {state.changes.map((c) => (
              <tr key={c.path}>
                <th scope="row" className="mono">
                  {c.path}
                </th>
                <td className="diff-del mono">{c.before ?? ""}</td>
                <td className="diff-add mono">{c.after ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : state.kind === "failed" ? (
        <p role="alert" className="error">
          {state.message}
        </p>
      ) : (
        <p role="status" className="muted small">
          Reading the changes…
        </p>
      )}
    </details>
  );
}
