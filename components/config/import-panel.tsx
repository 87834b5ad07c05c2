"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { ActionResult } from "@/components/forms/action-result";
import { DiffView } from "@/components/config/diff-view";
import { LocatedErrors, selectLine, type LocatedError } from "@/components/config/located-errors";
import { useHydrated } from "@/components/forms/use-hydrated";

interface Change {
  action: "create" | "update" | "delete";
  target: "plan" | "route" | "tenant" | "key" | "override" | "lists";
  name: string;
}
/** a key the import made: its secret is shown here once */
interface CreatedKey {
  tenant: string;
  name: string;
  secret?: string;
}
type Preview =
  { ok: false; errors: LocatedError[] } | { ok: true; changes: Change[]; before: string; after: string };

// Paste or edit YAML, preview (a dry run: every error with its path, or the changes and a
// line diff), then apply exactly the previewed text. Editing the text drops the preview.
export function ImportPanel({
  initial,
  preview,
  apply,
}: {
  initial: string;
  preview: (input: { text: string }) => Promise<ActionResult<Preview>>;
  apply: (input: {
    text: string;
  }) => Promise<ActionResult<{ configVersion: number | null; changes: Change[]; createdKeys: CreatedKey[] }>>;
}) {
  const router = useRouter();
  const [text, setText] = useState(initial);
  const [result, setResult] = useState<Preview | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedKey[]>([]);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const editor = useRef<HTMLTextAreaElement>(null);

  async function runPreview() {
    setPending(true);
    setMessage(null);
    const outcome = await preview({ text });
    setPending(false);
    if (outcome.ok) {
      setResult(outcome.data);
      // the first located error is highlighted in the editor at once
      const first = outcome.data.ok ? undefined : outcome.data.errors.find((e) => e.line !== undefined);
      if (first?.line !== undefined && editor.current) selectLine(editor.current, first.line);
    } else setMessage(outcome.message);
  }

  async function runApply() {
    setPending(true);
    const outcome = await apply({ text });
    setPending(false);
    if (outcome.ok) {
      setResult(null);
      setCreated(outcome.data.createdKeys);
      setMessage(
        `Applied: ${outcome.data.changes.length} change(s), config version ${outcome.data.configVersion ?? "unchanged"}.`,
      );
      router.refresh();
    } else setMessage(outcome.errors?.map((e) => `${e.path}: ${e.message}`).join("; ") || outcome.message);
  }

  return (
    <div className="import-panel">
      <label htmlFor="yaml">Configuration (YAML)</label>
      <textarea
        id="yaml"
        ref={editor}
        rows={18}
        spellCheck={false}
        className="mono"
        readOnly={!hydrated}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setResult(null);
        }}
      />
      <div className="form-actions">
        <button type="button" onClick={() => void runPreview()} disabled={pending || !hydrated}>
          Preview changes
        </button>
      </div>
      {message && (
        <p role="status" className="notice">
          {message}
        </p>
      )}
      {created.length > 0 && (
        <div data-testid="created-keys" className="notice">
          <p>New keys: copy their secrets now, they are not shown again.</p>
          <ul>
            {created.map((k) => (
              <li key={`${k.tenant}/${k.name}`}>
                {k.tenant}/{k.name}: <code className="mono">{k.secret}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {result && !result.ok && <LocatedErrors errors={result.errors} editor={editor} />}
      {result?.ok && (
        <div data-testid="import-preview">
          <h3>What will change</h3>
          {result.changes.length === 0 ? (
            <p className="muted">Nothing: the configuration already says this.</p>
          ) : (
            <ul>
              {result.changes.map((c, i) => (
                <li key={i}>
                  <span className={`badge change-${c.action}`}>{c.action}</span> {c.target}{" "}
                  <strong>{c.name}</strong>
                </li>
              ))}
            </ul>
          )}
          <DiffView before={result.before} after={result.after} />
          {result.changes.length > 0 && (
            <div className="form-actions">
              <button type="button" onClick={() => void runApply()} disabled={pending}>
                Apply {result.changes.length} change(s)
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
