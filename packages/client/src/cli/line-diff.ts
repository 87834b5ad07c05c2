// A line diff (the `diff` package's Myers diff over lines) and, for the CLI, `diff -u` hunks
// with three lines of context. The dashboard's import preview (components/config/diff-view.tsx)
// uses lineDiff too, through the package's public subpath (src/text.ts): one diff, and the
// package still stands alone (`diff` is its dependency, like `yaml`).
import { diffArrays } from "diff";

export interface DiffLine {
  kind: " " | "+" | "-";
  text: string;
}

// Myers costs about (lines x edits): past this many edits the texts share little, and
// "all removed, all added" says as much at no cost.
const MAX_EDITS = 1_500;
const CONTEXT = 3;

export function lineDiff(a: string[], b: string[]): DiffLine[] {
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDITS });
  if (changes === undefined)
    return [
      ...a.map((text) => ({ kind: "-" as const, text })),
      ...b.map((text) => ({ kind: "+" as const, text })),
    ];
  const kindOf = (c: { added: boolean; removed: boolean }): DiffLine["kind"] =>
    c.added ? "+" : c.removed ? "-" : " ";
  return changes.flatMap((change) => change.value.map((text) => ({ kind: kindOf(change), text })));
}

/** A text's lines, without the empty one after a final newline. */
export function lines(text: string): string[] {
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
}

/** `diff -u` style text, "" when the texts have the same lines. */
export function unifiedDiff(before: string, after: string, beforeName: string, afterName: string): string {
  const diff = lineDiff(lines(before), lines(after));
  if (diff.every((line) => line.kind === " ")) return "";
  const out = [`--- ${beforeName}`, `+++ ${afterName}`];
  let index = 0;
  while (index < diff.length) {
    while (index < diff.length && diff[index]!.kind === " ") index += 1;
    if (index >= diff.length) break;
    const start = Math.max(0, index - CONTEXT);
    let end = index;
    // extend the hunk while the next change is within 2 * CONTEXT unchanged lines
    for (let k = index; k < diff.length; k += 1) {
      if (diff[k]!.kind !== " ") end = k;
      else if (k - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(diff.length, end + 1 + CONTEXT);
    const hunk = diff.slice(start, stop);
    const oldStart = diff.slice(0, start).filter((l) => l.kind !== "+").length + 1;
    const newStart = diff.slice(0, start).filter((l) => l.kind !== "-").length + 1;
    const oldCount = hunk.filter((l) => l.kind !== "+").length;
    const newCount = hunk.filter((l) => l.kind !== "-").length;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const line of hunk) out.push(`${line.kind}${line.text}`);
    index = stop;
  }
  return `${out.join("\n")}\n`;
}
