// The side-by-side table and the targets of issue 4, from the measured rows.

export interface Row {
  id: string;
  what: string;
  /** requests per second */
  rps: number;
  /** checks per second (batch: rps x checks per request) */
  cps: number;
  p50: number;
  p99: number;
  note: string;
}

const num = (n: number): string => Math.round(n).toLocaleString("en-US");
const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "-");

export function printTable(rows: readonly Row[], ceiling: Row): void {
  console.log("\n| | what | req/s | checks/s | p50 ms | p99 ms | checks/s vs (a) | notes |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of rows) {
    const ratio = (row.cps / ceiling.cps).toFixed(2);
    console.log(
      `| ${row.id} | ${row.what} | ${num(row.rps)} | ${num(row.cps)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ratio}x | ${row.note} |`,
    );
  }
}

export interface Target {
  what: string;
  value: string;
  ok: boolean;
}

export function printTargets(targets: readonly Target[]): void {
  console.log("\n| target | measured | |\n| --- | --- | --- |");
  for (const t of targets) console.log(`| ${t.what} | ${t.value} | ${t.ok ? "met" : "MISSED"} |`);
}
