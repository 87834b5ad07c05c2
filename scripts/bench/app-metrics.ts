// Reads the app's /api/metrics before and after a phase, to say what its answers were:
// a throughput figure is only worth quoting if the checks were real (not degraded).

export type Outcomes = Record<string, number>;

export async function outcomes(appUrl: string): Promise<Outcomes> {
  const text = await (await fetch(`${appUrl}/api/metrics`)).text();
  const counts: Outcomes = {};
  for (const match of text.matchAll(/^sluice_checks_total\{outcome="(\w+)",reason="(\w+)"\} (\d+)$/gm)) {
    const key = `${match[1]}/${match[2]}`;
    counts[key] = (counts[key] ?? 0) + Number(match[3]);
  }
  const deny = /^sluice_cache_hits_total\{cache="deny"\} (\d+)$/m.exec(text);
  counts["deny-cache"] = Number(deny?.[1] ?? 0);
  return counts;
}

/** "allowed/ok 100%" style summary of what changed between two readings. */
export function describe(before: Outcomes, after: Outcomes): string {
  const deltas = Object.keys(after)
    .filter((key) => key !== "deny-cache")
    .map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)] as const)
    .filter(([, n]) => n > 0);
  const total = deltas.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return "no decisions";
  const parts = deltas.map(([key, n]) => `${key} ${((100 * n) / total).toFixed(1)}%`);
  const denyHits = (after["deny-cache"] ?? 0) - (before["deny-cache"] ?? 0);
  if (denyHits > 0) parts.push(`deny cache ${((100 * denyHits) / total).toFixed(1)}%`);
  return parts.join(", ");
}
