"use client";

import "@/components/styles/ops-tools.css";
import type { RefObject } from "react";

export interface LocatedError {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/** Selects `line` of the textarea (and scrolls to it), so the editor shows where an error is. */
export function selectLine(editor: HTMLTextAreaElement, line: number): void {
  const lines = editor.value.split("\n");
  const index = Math.min(Math.max(line, 1), lines.length) - 1;
  const start = lines.slice(0, index).reduce((sum, text) => sum + text.length + 1, 0);
  editor.focus();
  editor.setSelectionRange(start, start + (lines[index]?.length ?? 0));
  const lineHeight = editor.scrollHeight / Math.max(lines.length, 1);
  editor.scrollTop = Math.max(0, (index - 3) * lineHeight);
}

// Every error of a preview with its line and column; a click highlights that line in the editor.
export function LocatedErrors({
  errors,
  editor,
}: {
  errors: readonly LocatedError[];
  editor: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <div role="alert" className="error" data-testid="import-errors">
      <p>{errors.length} problem(s); nothing was changed:</p>
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            {e.line !== undefined && (
              <button
                type="button"
                className="link-button mono"
                data-testid="error-location"
                onClick={() => editor.current && selectLine(editor.current, e.line ?? 1)}
              >
                line {e.line}, column {e.column ?? 1}
              </button>
            )}{" "}
            <code>{e.path || "(document)"}</code>: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
