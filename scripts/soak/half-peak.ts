// Both soaks' load: the bench keys x 40 subjects each as check bodies, and half the peak the
// server reached with them over 5 s (wrk, 50 connections) as the rate to hold.
import { load } from "../bench/load";

export interface SoakLoad {
  bodies: string[];
  peak: number;
  rate: number;
}

export async function halfPeak(
  url: string,
  token: string,
  keys: readonly string[],
  route: string,
): Promise<SoakLoad> {
  const bodies = keys.flatMap((apiKey, k) =>
    Array.from({ length: 40 }, (_, s) => JSON.stringify({ apiKey, route, subject: `user-${k}-${s}` })),
  );
  const peak = await load({ url, bodies, token, seconds: 5, connections: 50 });
  return { bodies, peak: Math.round(peak.rps), rate: Math.max(50, Math.round(peak.rps / 2)) };
}
