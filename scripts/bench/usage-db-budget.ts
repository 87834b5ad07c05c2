// The storage budget table of npm run bench:usage-db: bytes per row as measured, times the
// rows a day of the realistic mix writes into each table, at the default retention.

export interface TableBytes {
  bytes: number;
  rows: number;
}

export interface BudgetRow {
  table: string;
  bytesPerRow: number;
  rowsPerDay: number;
  /** what the table holds at its retention, in days (the pair window: a fraction) */
  retentionDays: number;
  note: string;
}

const GB = 1e9;
const KEYS = 1_000;
const ROUTES = 50;

/** Rows a day of `tenants` tenants with `pairs` pairs a minute each (1,000 keys, 50 routes). */
export function budgetRows(bytes: Map<string, TableBytes>, tenants: number, pairs: number): BudgetRow[] {
  const per = (table: string): number => {
    const t = bytes.get(table);
    return t && t.rows > 0 ? t.bytes / t.rows : 0;
  };
  const series = KEYS + ROUTES + 1;
  return [
    {
      table: "UsageMinute",
      bytesPerRow: per("UsageMinute"),
      rowsPerDay: tenants * series * 1_440,
      retentionDays: 7,
      note: "tenant, per key, per route",
    },
    {
      table: "UsageMinutePair",
      bytesPerRow: per("UsageMinutePair"),
      rowsPerDay: tenants * pairs * 1_440,
      retentionDays: 3 / 24,
      note: "key x route pairs, kept 3 h",
    },
    {
      table: "UsageHour",
      bytesPerRow: per("UsageHour"),
      rowsPerDay: tenants * (pairs + series) * 24,
      retentionDays: 90,
      note: "every series",
    },
    {
      table: "UsageDay",
      bytesPerRow: per("UsageDay"),
      rowsPerDay: tenants * (pairs + series),
      retentionDays: 3 * 365,
      note: "every series",
    },
  ];
}

export interface RollupCost {
  minuteMs: number;
  minuteCpuMs: number;
  hourMs: number;
  tenants: number;
}

export function printBudget(rows: BudgetRow[], rollup: RollupCost): void {
  const gb = (n: number) => `${(n / GB).toFixed(n < GB ? 3 : 2)} GB`;
  console.log(
    "\nstorage at the realistic mix (48,000 pairs a minute over 10 tenants), bytes per row measured\n",
  );
  console.log("| table | kept | bytes/row | rows a day | a day | at the default retention |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  let kept = 0;
  let daily = 0;
  for (const r of rows) {
    const perDay = r.bytesPerRow * r.rowsPerDay;
    const total = perDay * r.retentionDays;
    // the pair window's rows leave within hours: they count once, as what it holds
    if (r.retentionDays >= 1) daily += perDay;
    kept += total;
    const day = r.retentionDays >= 1 ? gb(perDay) : `(${gb(perDay)} written, dropped)`;
    console.log(
      `| ${r.table} | ${r.note} | ${r.bytesPerRow.toFixed(0)} | ${Math.round(r.rowsPerDay).toLocaleString("en-US")} | ${day} | ${gb(total)} |`,
    );
  }
  console.log(
    `| total | | | | ${gb(daily)} ${daily <= 1.5 * GB ? "ok" : "OVER"} (goal <= 1.5 GB) | ${gb(kept)} ${kept < 50 * GB ? "ok" : "OVER"} (goal < 50 GB) |`,
  );
  const perMinute =
    rows.find((r) => r.table === "UsageMinute")!.rowsPerDay / 1_440 +
    rows.find((r) => r.table === "UsageMinutePair")!.rowsPerDay / 1_440;
  console.log(
    `\nrows written a minute: ${Math.round(perMinute).toLocaleString("en-US")} (and an hour's rows once an hour)` +
      `\nrollup of one minute of the mix: ${rollup.minuteMs.toFixed(0)} ms (${rollup.minuteCpuMs.toFixed(0)} ms of the app's CPU, the rest PostgreSQL's)` +
      `\nrollup of one hour of one tenant (1 of ${rollup.tenants}): ${rollup.hourMs.toFixed(0)} ms`,
  );
}
