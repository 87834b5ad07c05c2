// The what-if replay a dry-run import answers (docs/replay.md), as lines for `config diff`:
// per changed limit, the checks of the last hour and what today's and the proposed values
// would have rejected of them.
import type { ReplayAnswer } from "./views";

const n = (v: number): string => v.toLocaleString("en-US");

export function replayLines(replay: ReplayAnswer | undefined): string[] {
  if (!replay || replay.replays.length === 0) return [];
  const lines = ["Replayed over the last hour's recorded checks:"];
  for (const r of replay.replays) {
    const where = [`tenant ${r.tenant}`, r.key ? `key ${r.key}` : "", r.route ? `route ${r.route}` : ""]
      .filter(Boolean)
      .join(", ");
    const t = r.result.totals;
    lines.push(
      `  ${r.limit} (${where}): ${n(t.checks)} checks; today's limit rejects ${n(t.currentRejected)}, the new one ${n(t.proposedRejected)}${r.result.bounds.truncated ? " (cut short by a cap)" : ""}`,
    );
  }
  if (replay.leftOut > 0) lines.push(`  ${replay.leftOut} more changed limits not replayed`);
  return lines;
}
