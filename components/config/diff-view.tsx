import { lineDiff, lines as linesOf } from "@sluice/client/text";

// The import preview's before/after, line by line (the CLI's diff: one implementation).

const CLASS = { " ": "diff-same", "+": "diff-add", "-": "diff-del" } as const;

export function DiffView({ before, after }: { before: string; after: string }) {
  const lines = lineDiff(linesOf(before), linesOf(after));
  if (lines.every((l) => l.kind === " ")) return <p className="muted">The text is identical.</p>;
  return (
    <pre className="diff" data-testid="yaml-diff" aria-label="Before and after, line by line">
      {lines.map((line, i) => (
        <span key={i} className={CLASS[line.kind]}>
          {line.kind === " " ? "  " : `${line.kind} `}
          {line.text}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}
