import { lineDiff } from "@/components/config/line-diff";

export function DiffView({ before, after }: { before: string; after: string }) {
  const lines = lineDiff(before, after);
  if (lines.every((l) => l.kind === "same")) return <p className="muted">The text is identical.</p>;
  return (
    <pre className="diff" data-testid="yaml-diff" aria-label="Before and after, line by line">
      {lines.map((line, i) => (
        <span key={i} className={`diff-${line.kind}`}>
          {line.kind === "add" ? "+ " : line.kind === "del" ? "- " : "  "}
          {line.text}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}
