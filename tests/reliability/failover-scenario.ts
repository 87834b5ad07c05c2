import { afterAll, beforeAll, expect } from "vitest";
import { AppProcess } from "../integration/check/processes";
import { serverLatency, sleep, waitForVersion } from "../integration/check/http";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "../integration/check/setup";
import { HA_BASE, waitFor } from "./topology";
import { bigLimit, expectServerLatency, figures, print, Traffic } from "./failover-traffic";

// What the Sentinel and the Cluster failover tests share: a tenant with one huge limit, a
// Redis topology and an app process of its own pointed at it (set up and torn down by
// failoverRig), then one run: steady traffic, the primary killed, the topology heals,
// and every answer must have been a 200 within the check timeout.

const LIMIT = 1_000_000;
const WINDOW_MS = 365 * 86_400_000;
const TIMEOUT_MS = 50;

export interface Topology {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface Rig {
  app: AppProcess;
  tenant: string;
}

/** Registers beforeAll/afterAll; `env` points the app at the topology. */
export function failoverRig(prefix: string, topology: Topology, env: Record<string, string>): Rig {
  const rig = { tenant: unique(prefix) } as Rig;
  beforeAll(async () => {
    const setup = await setupTenants([
      { slug: rig.tenant, plan: "free", limits: [...FREE_PLAN_OFF, bigLimit(LIMIT)] },
    ]);
    await topology.start();
    rig.app = new AppProcess(HA_BASE + 11, { ...env, SLUICE_CHECK_TIMEOUT_MS: String(TIMEOUT_MS) });
    await rig.app.start();
    await waitForVersion(setup.version, rig.app.url, 15_000);
  }, 90_000);
  afterAll(async () => {
    await rig.app?.stop();
    await topology.stop();
    await closeClients();
  });
  return rig;
}

export interface Crash {
  /** SIGKILL the primary that serves the tenant */
  kill(): Promise<void>;
  /** polled until the topology serves the tenant again */
  healed(): Promise<boolean>;
}

export async function failOver(
  rig: Rig,
  what: { title: string; healing: string; healedSays: string; crash: () => Promise<Crash> },
): Promise<void> {
  const traffic = new Traffic(rig.app.url, rig.tenant);
  traffic.start();
  expect(await traffic.exactAgain(20, 10_000)).toBe(true);
  const before = await serverLatency(rig.app.url);
  await sleep(1_000);
  const crash = await what.crash();
  const killedAt = traffic.now();
  await crash.kill();
  await waitFor(crash.healed, what.healing, 20_000);
  const healedAt = traffic.now();
  expect(await traffic.exactAgain(40, 15_000)).toBe(true);
  await sleep(1_000);
  await traffic.stop();
  const after = await serverLatency(rig.app.url);

  const timedOut = after.timedOut - before.timedOut;
  const result = figures(traffic.samples, killedAt, TIMEOUT_MS, LIMIT, WINDOW_MS, timedOut);
  print(what.title, result);
  console.log(`  ${what.healedSays} ${(healedAt - killedAt).toFixed(0)} ms after the kill (as polled)`);
  expect(result.non200).toBe(0);
  expectServerLatency(before, after);
  // As the client saw them (printed above): answers over the timeout + 50 ms that this
  // process's own stalls do not explain. Not asserted: on a loaded 2-core machine a request
  // also waits for the server's busy event loop before the server's clock starts, so five
  // runs in a row at a load of 15-20 saw 1-22 such answers, before the kill as often as
  // after it. The server's own timing above is the bound that holds under load.
  expect(result.exactAfterMs).toBeLessThan(15_000);
  // forgotten admissions: at most what the old primary acknowledged in its last moments.
  // Certain ones only: a call that timed out may or may not have been counted, so the upper
  // figure (printed) grows with the timeouts a loaded machine adds (54 with 79 timeouts)
  expect(result.overAdmittedAtLeast).toBeLessThanOrEqual(50);
}
