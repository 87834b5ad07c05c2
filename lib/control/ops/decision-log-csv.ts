import "server-only";
import type { DecisionLog, LogEntry } from "@/lib/control/ops/decision-log";

// The decision log as CSV (RFC 4180), streamed a few rows per chunk. Subjects and routes
// come from callers of /api/check: a cell a spreadsheet would read as a formula gets a
// leading apostrophe, so opening the export runs nothing.

const COLUMNS = ["at", "key", "route", "subject", "outcome", "reason", "denied_by"] as const;
const ROWS_PER_CHUNK = 100;

export function csvCell(value: string | null): string {
  if (value === null) return "";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(e: LogEntry): string {
  return [e.at, e.key, e.route, e.subject, e.outcome, e.reason, e.deniedBy].map(csvCell).join(",") + "\r\n";
}

export function decisionLogCsv(log: DecisionLog): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(COLUMNS.join(",") + "\r\n"));
    },
    pull(controller) {
      if (next >= log.entries.length) {
        controller.close();
        return;
      }
      const rows = log.entries.slice(next, next + ROWS_PER_CHUNK);
      next += rows.length;
      controller.enqueue(encoder.encode(rows.map(csvRow).join("")));
    },
  });
}

/** The download's file name: the tenant and the time of the export. */
export function csvFileName(tenant: string, now: Date): string {
  return `decisions-${tenant}-${now.toISOString().replace(/[:.]/g, "-")}.csv`;
}
