// The check front's own counters the fault soak reports per minute, read from /api/metrics:
// degraded decisions by cause, answers later than the timeout by cause, store failures.
import { sideRead } from "../../../tests/integration/check/side-read";

export interface ServerFigures {
  /** sluice_degraded_decisions_total by cause (summed over allowed true/false) */
  degraded: Record<string, number>;
  /** sluice_check_late_answers_total by cause (starved, waited) */
  late: Record<string, number>;
  /** the usage recorder: decisions dropped, tenant units sent again, decisions waiting */
  usage: { dropped: number; retried: number; pending: number };
}

const LINE = /^(sluice_[a-z_]+)\{([^}]*)\} ([\d.e+-]+)$/;

function byLabel(text: string, metric: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const match = LINE.exec(line);
    if (!match || match[1] !== metric) continue;
    const value = new RegExp(`${label}="([^"]*)"`).exec(match[2] ?? "")?.[1];
    if (value === undefined) continue;
    out[value] = (out[value] ?? 0) + Number(match[3]);
  }
  return out;
}

function plain(text: string, metric: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${metric} `));
  return line === undefined ? 0 : Number(line.slice(metric.length + 1));
}

export async function readServerFigures(appUrl: string): Promise<ServerFigures> {
  // a connection of its own: on fetch's pool it would go to the app process for good, and
  // the probe's checks that later reuse it would take the app's path (side-read.ts)
  const text = await sideRead(`${appUrl}/api/metrics`)
    .then((response) => response.text)
    .catch(() => "");
  return {
    degraded: byLabel(text, "sluice_degraded_decisions_total", "cause"),
    late: byLabel(text, "sluice_check_late_answers_total", "cause"),
    usage: {
      dropped: plain(text, "sluice_usage_dropped_decisions_total"),
      retried: plain(text, "sluice_usage_flush_retries_total"),
      pending: plain(text, "sluice_usage_pending_decisions"),
    },
  };
}

/** What grew between two readings, per label (a restarted counter counts from zero). */
export function grown(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, value] of Object.entries(after)) {
    const delta = value - (before[label] ?? 0);
    if (delta > 0) out[label] = delta;
  }
  return out;
}
