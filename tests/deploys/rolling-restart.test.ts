import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, importDoc, setupTenants, unique } from "../integration/check/setup";
import { decide, sleep, waitForVersion, type Decision } from "../integration/check/http";
import { BOOTSTRAP, settledUsage, startFleet, tenantWith, timedStop, type Fleet } from "./fleet";
import { SteadyTraffic } from "./traffic";

// Two instances behind HAProxy (docs/examples/haproxy.cfg) under steady check traffic,
// restarted one after the other (SIGTERM, start again): the client sees no connection error
// and no 5xx, each instance exits within 5 s, and the usage API counts every decision made.
// Then, with both up: a config change is enforced by both within 1 s, and a limit of L is
// not exceeded across both.

const slug = unique("deploy");
const tenantDoc = (limit: number) =>
  tenantWith(slug, [
    { name: "per-subject", by: "subject", limit: 20 },
    { name: "burst", by: "tenant", limit },
  ]);
const other = unique("deploy-cap");

let fleet: Fleet;

beforeAll(async () => {
  const setup = await setupTenants([tenantDoc(1_000_000), tenantWith(other, [])]);
  fleet = await startFleet();
  for (const instance of fleet.instances) await waitForVersion(setup.version, instance.url);
}, 120_000);

afterAll(async () => {
  if (process.env.DEPLOYS_DEBUG)
    for (const i of fleet?.instances ?? []) console.log(`--- ${i.url}\n${i.log}`);
  await fleet?.stop();
  await closeClients();
});

describe("rolling restart behind HAProxy", () => {
  it(
    "loses no check and no usage count while both instances restart in turn",
    { timeout: 120_000 },
    async () => {
      const since = Date.now();
      const traffic = new SteadyTraffic(fleet.lb.url, BOOTSTRAP, (n) => ({
        tenant: slug,
        subject: `s${n % 64}`,
      }));
      traffic.start();
      await sleep(1_000);
      const exits: number[] = [];
      for (const [i, instance] of fleet.instances.entries()) {
        exits.push(await timedStop(instance));
        await instance.start();
        // as a deploy does: the next instance restarts once the balancer sends traffic here again
        await fleet.lb.waitUp(`sluice${i + 1}`);
        await sleep(500);
      }
      const tally = await traffic.stop();
      const decisions = tally.allowed + tally.rejected;
      console.log(
        `[deploys] rolling restart: ${decisions} checks (${tally.rejected} denied), ` +
          `${tally.connectionErrors} connection errors, ${tally.serverErrors} 5xx, ${tally.retried} retried by the client, ` +
          `slowest answer ${tally.slowestMs.toFixed(0)} ms, exits in ${exits.map((ms) => ms.toFixed(0)).join(" and ")} ms` +
          (tally.firstUnexpected ? `; first unexpected answer: ${tally.firstUnexpected}` : ""),
      );
      expect(tally).toMatchObject({ connectionErrors: 0, serverErrors: 0, otherStatus: 0 });
      expect(decisions).toBeGreaterThan(200);
      expect(tally.rejected).toBeGreaterThan(0);
      for (const ms of exits) expect(ms).toBeLessThan(5_000);

      const usage = await settledUsage(fleet.lb.url, slug, since, decisions);
      console.log(
        `[deploys] usage API after the restarts: ${usage.allowed} allowed, ${usage.rejected} rejected`,
      );
      expect(usage).toEqual({ allowed: tally.allowed, rejected: tally.rejected });
    },
  );

  it("enforces a config change on both instances within 1 s", async () => {
    const version = await importDoc({ tenants: [tenantDoc(1)] });
    const started = performance.now();
    const took = await Promise.all(
      fleet.instances.map(async (instance) => {
        for (;;) {
          const d: Decision = await decide(
            { tenant: slug, subject: "probe", dryRun: true },
            { url: instance.url },
          );
          if (d.configVersion >= version) return performance.now() - started;
          if (performance.now() - started > 5_000) throw new Error(`${instance.url}: not enforced after 5 s`);
          await sleep(10);
        }
      }),
    );
    console.log(`[deploys] config change enforced in ${took.map((ms) => ms.toFixed(0)).join(" and ")} ms`);
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });

  it("admits no more than L across both instances", async () => {
    const L = 25;
    const version = await importDoc({
      tenants: [tenantWith(other, [{ name: "cap", by: "tenant", limit: L }])],
    });
    for (const instance of fleet.instances) await waitForVersion(version, instance.url);
    // 4 L checks at once through the balancer, which spreads them over both instances
    const traffic = new SteadyTraffic(fleet.lb.url, BOOTSTRAP, () => ({ tenant: other }), 8);
    await Promise.all(Array.from({ length: 4 * L }, () => traffic.one(JSON.stringify({ tenant: other }))));
    const tally = await traffic.stop();
    expect(tally).toMatchObject({
      allowed: L,
      rejected: 3 * L,
      degraded: 0,
      serverErrors: 0,
      connectionErrors: 0,
    });
  });
});
