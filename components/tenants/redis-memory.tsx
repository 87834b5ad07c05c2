import { formatDate } from "@/lib/shared/format-date";
import type { MeasuredMemory } from "@/lib/usage/record/tenant-memory";
import { formatWhole } from "@/lib/shared/format-count";

// The tenant's approximate Redis footprint (counters, sliding logs, usage), as the last
// once-a-minute pass measured it (lib/usage/tenant-memory.ts).

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function RedisMemory({ memory }: { memory: MeasuredMemory | null }) {
  return (
    <div className="panel" data-testid="redis-memory">
      <h2>Redis memory</h2>
      {memory === null ? (
        <p className="muted">Not measured yet (a pass runs once a minute), or this tenant holds no keys.</p>
      ) : (
        <p>
          About <strong>{formatBytes(memory.bytes)}</strong>
          {memory.complete ? "" : " or more"} in {formatWhole(memory.keys)}
          {memory.complete ? "" : "+"} keys, measured {formatDate(memory.measuredAt)}.
        </p>
      )}
    </div>
  );
}
