// Step 4: single checks, one at a time on each server (both at once), of a few tenants'
// keys over their routes, for a while: quiet, then while one change a second is made.
import { CheckClient, type CheckBody } from "./check-client";
import { KEYS_PER_TENANT, ROUTES_PER_TENANT, routeOf } from "./document";
import { spread, type Spread } from "./stats";

export interface CheckRun {
  a: Spread;
  b: Spread;
  /** answers that were not a 200 "ok" decision */
  errors: number;
}

export function checkBodies(secrets: Map<string, string[]>, slugs: readonly string[]): CheckBody[] {
  const bodies: CheckBody[] = [];
  for (const slug of slugs) {
    const keys = secrets.get(slug) ?? [];
    for (let k = 0; k < KEYS_PER_TENANT; k++)
      for (let r = 0; r < ROUTES_PER_TENANT; r++) {
        const apiKey = keys[k];
        if (apiKey) bodies.push({ apiKey, route: routeOf(r) });
      }
  }
  return bodies;
}

async function loop(
  client: CheckClient,
  bodies: readonly CheckBody[],
  until: number,
  errors: { n: number },
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; performance.now() < until; i++) {
    const { ms, status, decision } = await client.check(bodies[i % bodies.length] as CheckBody);
    times.push(ms);
    if (status !== 200 || decision?.reason !== "ok") errors.n++;
  }
  return times;
}

export async function measureChecks(
  a: CheckClient,
  b: CheckClient,
  bodies: readonly CheckBody[],
  seconds: number,
): Promise<CheckRun> {
  if (bodies.length === 0) throw new Error("no check bodies: the sampled tenants have no keys");
  const until = performance.now() + seconds * 1_000;
  const errors = { n: 0 };
  const [onA, onB] = await Promise.all([loop(a, bodies, until, errors), loop(b, bodies, until, errors)]);
  return { a: spread(onA), b: spread(onB), errors: errors.n };
}
