// A line diff (longest common subsequence) and, for the CLI, `diff -u` hunks with three
// lines of context. The dashboard's import preview (components/config/diff-view.tsx) uses
// lineDiff too, through the package's public subpath (src/text.ts): one diff, and the
// package still stands alone.

export interface DiffLine {
  kind: " " | "+" | "-";
  text: string;
}

const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

export function lineDiff(a: string[], b: string[]): DiffLine[] {
  // The lines both texts start and end with are kept as they are (an LCS keeps them too), so
  // one edit in a document of thousands of lines costs its own lines, not lines squared.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const same = (from: string[], start: number, end: number): DiffLine[] =>
    from.slice(start, end).map((text) => ({ kind: " " as const, text }));
  return [
    ...same(a, 0, head),
    ...middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...same(a, a.length - tail, a.length),
  ];
}

function middleDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // Past a few thousand changed lines each: all removed then all added, rather than much memory.
  if (n * m > MAX_CELLS)
    return [
      ...a.map((text) => ({ kind: "-" as const, text })),
      ...b.map((text) => ({ kind: "+" as const, text })),
    ];
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lcs[i * (m + 1) + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: " ", text: a[i]! });
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)
      out.push({ kind: "-", text: a[i++]! });
    else out.push({ kind: "+", text: b[j++]! });
  }
  while (i < n) out.push({ kind: "-", text: a[i++]! });
  while (j < m) out.push({ kind: "+", text: b[j++]! });
  return out;
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
