// What usage recorded for the bench tenant from `since` on: every outcome summed, the figure
// both soaks hold against the decisions their load was answered (nothing may be lost).
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function countedUsage(since: number): Promise<number> {
  await sleep(3_000); // the last usage flush (1 s) lands
  const { queryUsage } = await import("@/lib/usage/read/api-series");
  const query = { tenant: "bench", fromMs: since, toMs: Date.now() + 60_000, stepMs: 60_000 };
  const series = await queryUsage({ kind: "system", label: "soak" }, query);
  return series.points.reduce((sum, p) => sum + p.allowed + p.rejected + p.shadowRejected + p.degraded, 0);
}
