"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import type { ActionResult } from "@/components/forms/action-result";

// After Save the editor comes back with ?saved=<name>&in=<where>&v=<version>: confirm it,
// bring that very row into view (a key's limit, not the tenant's row of the same name;
// opening the folded group it sits in) and keep the confirmation in view beside it (it is
// sticky). For a few seconds it offers Undo: the save's inverse, as a change of its own.

export type UndoAction = (input: {
  version: number;
}) => Promise<ActionResult<{ configVersion: number | null }>>;

const UNDO_SECONDS = 15;

function savedRow(name: string, scope: string | null): HTMLElement | null {
  const rows = [...document.querySelectorAll<HTMLElement>(`[data-testid="limit-${CSS.escape(name)}"]`)];
  return (
    rows.find((row) => row.closest("[data-scope]")?.getAttribute("data-scope") === scope) ?? rows[0] ?? null
  );
}

export function SavedNotice({ undo }: { undo?: UndoAction }) {
  const search = useSearchParams();
  // a new save starts afresh: its own undo window and state
  return <Notice key={search.toString()} undo={undo} />;
}

function Notice({ undo }: { undo?: UndoAction }) {
  const search = useSearchParams();
  const router = useRouter();
  const saved = search.get("saved");
  const scope = search.get("in");
  const version = Number(search.get("v") ?? "");
  const [undoOpen, setUndoOpen] = useState(true);
  const [state, setState] = useState<{ kind: "idle" | "pending" | "done" | "failed"; text?: string }>({
    kind: "idle",
  });
  useEffect(() => {
    if (!saved) return;
    const row = savedRow(saved, scope);
    if (!row) return;
    for (let el = row.parentElement; el; el = el.parentElement)
      if (el instanceof HTMLDetailsElement) el.open = true;
    for (const other of document.querySelectorAll(".just-saved")) other.classList.remove("just-saved");
    row.classList.add("just-saved");
    row.scrollIntoView({ block: "center" });
  }, [saved, scope]);
  useEffect(() => {
    const timer = setTimeout(() => setUndoOpen(false), UNDO_SECONDS * 1_000);
    return () => clearTimeout(timer);
  }, []);
  if (!saved) return null;

  async function onUndo() {
    if (!undo) return;
    setState({ kind: "pending" });
    const result = await undo({ version });
    if (!result.ok) return setState({ kind: "failed", text: result.message });
    setState({ kind: "done", text: `Undone: ${saved} is as it was (version ${result.data.configVersion}).` });
    router.refresh();
  }

  const canUndo = undo && Number.isInteger(version) && version > 0 && undoOpen && state.kind === "idle";
  return (
    <div className="banner banner-ok banner-saved" role="status" data-testid="saved-notice">
      {state.kind === "done" ? (
        <span data-testid="undo-done">{state.text}</span>
      ) : (
        <span>
          Saved <strong>{saved}</strong>
          {scope && scope !== "tenant" ? ` (${scope.replace(":", " ")})` : ""}. Checks use it within a second.
        </span>
      )}
      {canUndo && (
        <button type="button" className="secondary" onClick={onUndo} data-testid="undo-save">
          Undo
        </button>
      )}
      {state.kind === "pending" && <span className="muted">Undoing…</span>}
      {state.kind === "failed" && (
        <span className="error" role="alert" data-testid="undo-failed">
          Not undone: {state.text}
        </span>
      )}
    </div>
  );
}
