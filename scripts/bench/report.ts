// The side-by-side table and the check API's performance targets, from the measured rows.

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
  /** CPU µs per check of the load generator (wrk), on the same cores (NaN: not measured) */
  clientUs: number;
  note: string;
}

const num = (n: number): string => Math.round(n).toLocaleString("en-US");
const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "-");
const us = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");

export function printTable(rows: readonly Row[], ceiling: Row): void {
  console.log(
    "\n| | what | req/s | checks/s | p50 ms | p99 ms | checks/s vs (a) | server µs/check | Redis µs/check | wrk µs/check | notes |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of rows) {
    const ratio = (row.cps / ceiling.cps).toFixed(2);
    console.log(
      `| ${row.id} | ${row.what} | ${num(row.rps)} | ${num(row.cps)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ratio}x | ${us(row.serverUs)} | ${us(row.redisUs)} | ${us(row.clientUs)} | ${row.note} |`,
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

interface Figures {
  rps: number;
  p99: number;
}

/** The check API's targets from the phases' figures (c: requests of `batch` checks each). */
export function checkApiTargets(
  { a, b, c, d, e, g, half }: Record<"a" | "b" | "c" | "d" | "e" | "g" | "half", Figures>,
  batch: number,
): Target[] {
  const x = (p: number, q: number): string => `${(p / q).toFixed(2)}x`;
  return [
    { what: "(b) >= 2x (d)", value: x(b.rps, d.rps), ok: b.rps >= 2 * d.rps },
    { what: "(b) >= 0.4x (a)", value: x(b.rps, a.rps), ok: b.rps >= 0.4 * a.rps },
    { what: "(c) >= 5x (b) in checks/s", value: x(c.rps * batch, b.rps), ok: c.rps * batch >= 5 * b.rps },
    {
      what: "usage recording costs <= 10% ((b) vs (g))",
      value: `${((1 - b.rps / g.rps) * 100).toFixed(1)}%`,
      ok: b.rps >= 0.9 * g.rps,
    },
    { what: "(e) >= 0.8x (a)", value: x(e.rps, a.rps), ok: e.rps >= 0.8 * a.rps },
    { what: "p99 of (b) at half its peak <= 5 ms", value: `${half.p99.toFixed(2)} ms`, ok: half.p99 <= 5 },
  ];
}
