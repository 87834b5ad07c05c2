import "@/components/ops/ops-tools.css";
import Link from "next/link";
import type { LiveUtilization } from "@/lib/data/live-utilization";
import { LimitCounter } from "@/components/ops/limit-counter";

// The Limits tab's "right now": each tenant-wide and per-key counter against its capacity,
// busiest first, with a way into the lookup for the details.

export function LiveCountersPanel({ slug, live }: { slug: string; live: LiveUtilization | null }) {
  const rows = [...(live?.counters ?? [])].sort((a, b) => b.used / b.capacity - a.used / a.capacity);
  return (
    <div className="panel" data-testid="live-counters">
      <h2>Utilization now</h2>
      <p className="muted">
        Live counters of the limits counted per tenant and per key (per-subject limits: use the{" "}
        <Link href={`/tenants/${slug}/lookup`}>lookup</Link>).
      </p>
      {live === null ? (
        <p className="muted">Redis did not answer; the counters cannot be read right now.</p>
      ) : rows.length === 0 ? (
        <p className="muted">No limit counted per tenant or per key.</p>
      ) : (
        <div className="table-scroll">
          <table className="stack-on-phone" aria-label="Utilization now">
            <thead>
              <tr>
                <th>Limit</th>
                <th>Counts for</th>
                <th>Counter now</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={`${c.name}|${c.route ?? ""}|${c.owner}`}>
                  <td>
                    <strong>{c.name}</strong>
                    {c.route && <div className="muted mono">{c.route}</div>}
                  </td>
                  <td data-label="Counts for">
                    {c.owner === "tenant" ? (
                      "the tenant"
                    ) : (
                      <Link href={`/tenants/${slug}/lookup?key=${encodeURIComponent(c.owner)}`}>
                        key {c.owner}
                      </Link>
                    )}
                  </td>
                  <td data-label="Counter now">
                    <LimitCounter
                      figures={{
                        limit: c.capacity,
                        burst: null,
                        windowMs: 0,
                        remaining: c.capacity - c.used,
                        resetMs: c.resetMs,
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {live !== null && live.leftOut > 0 && (
        <p className="muted">{live.leftOut} more counters (of further keys) are not shown.</p>
      )}
    </div>
  );
}
