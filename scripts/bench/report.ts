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
  /** CPU µs per check of the server process and of Redis during the phase (NaN: not measured) */
  serverUs: number;
  redisUs: number;
  note: string;
}

const num = (n: number): string => Math.round(n).toLocaleString("en-US");
const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "-");
const us = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");

export function printTable(rows: readonly Row[], ceiling: Row): void {
  console.log(
    "\n| | what | req/s | checks/s | p50 ms | p99 ms | checks/s vs (a) | server µs/check | Redis µs/check | notes |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of rows) {
    const ratio = (row.cps / ceiling.cps).toFixed(2);
    console.log(
      `| ${row.id} | ${row.what} | ${num(row.rps)} | ${num(row.cps)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ratio}x | ${us(row.serverUs)} | ${us(row.redisUs)} | ${row.note} |`,
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
