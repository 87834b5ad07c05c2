import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, importDoc, setupTenants, unique } from "../integration/check/setup";
import { sleep, waitForVersion } from "../integration/check/http";
import { AppProcess } from "../integration/check/processes";
import { queryUsage } from "@/lib/usage/read/api-series";
import { BOOTSTRAP, INSTANCE_ENV, LB_PORT, sumUsage, tenantWith, timedStop } from "./fleet";
import { checkOnNewConnection, SteadyTraffic } from "./traffic";

// SLUICE_WORKERS=2: two check processes share one port (node:cluster) beside the one app
// process. Counting stays exact across them, a config change reaches both, connections
// they do not answer reach the app, and SIGTERM stops them all within 5 s with every
// answered decision counted in usage.

const capped = unique("workers-cap");
const counted = unique("workers-usage");
const L = 30;
const cappedDoc = (limit: number) => tenantWith(capped, [{ name: "cap", by: "tenant", limit }]);
const app = new AppProcess(LB_PORT + 3, { ...INSTANCE_ENV, SLUICE_WORKERS: "2" });

/** Each check on a connection of its own: node:cluster hands new connections to the workers in turn. */
const fresh = { newConnection: true };

beforeAll(async () => {
  const setup = await setupTenants([cappedDoc(L), tenantWith(counted, [])]);
  await app.start();
  for (let i = 0; i < 4; i++) await waitForVersion(setup.version, app.url);
}, 120_000);

afterAll(async () => {
  await app.stop();
  await closeClients();
});

describe("SLUICE_WORKERS=2", () => {
  it("runs two check workers and one app process under the primary", () => {
    const children = execFileSync("ps", ["-o", "args=", "--ppid", String(app.pid)], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(children.filter((c) => c.includes("server.mjs"))).toHaveLength(2);
    expect(children.filter((c) => c.includes("server-app.mjs"))).toHaveLength(1);
  });

  it("passes what the workers do not answer on to the app process", async () => {
    for (let i = 0; i < 4; i++) expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });

  it("admits exactly L across the workers", async () => {
    const traffic = new SteadyTraffic(app.url, BOOTSTRAP, () => ({}), 1);
    await Promise.all(
      Array.from({ length: 4 * L }, () => traffic.one(JSON.stringify({ tenant: capped }), fresh)),
    );
    expect(await traffic.stop()).toMatchObject({
      allowed: L,
      rejected: 3 * L,
      degraded: 0,
      serverErrors: 0,
      connectionErrors: 0,
    });
  });

  it("enforces a config change in both workers within 1 s", async () => {
    const version = await importDoc({ tenants: [cappedDoc(L + 1)] });
    const started = performance.now();
    let inARow = 0;
    // 8 probes in a row on new connections (the workers in turn) all on the new version
    while (inARow < 8) {
      const d = await checkOnNewConnection(app.url, BOOTSTRAP, { tenant: capped, dryRun: true });
      inARow = d.configVersion >= version ? inARow + 1 : 0;
      if (performance.now() - started > 5_000) throw new Error("not enforced by both workers after 5 s");
    }
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("counts every decision answered, through a SIGTERM under traffic, and stops within 5 s", async () => {
    const since = Date.now();
    const traffic = new SteadyTraffic(
      app.url,
      BOOTSTRAP,
      (n) => ({ tenant: counted, subject: `s${n % 16}` }),
      4,
      2,
    );
    traffic.start();
    await sleep(1_000);
    const exit = await timedStop(app);
    const tally = await traffic.stop();
    console.log(
      `[deploys] 2 workers, SIGTERM under traffic: exit in ${exit.toFixed(0)} ms, ${tally.allowed + tally.rejected} answered, ` +
        `${tally.serverErrors} 5xx`,
    );
    expect(exit).toBeLessThan(5_000);
    expect(tally.serverErrors).toBe(0);
    expect(tally.allowed).toBeGreaterThan(50);
    const query = { tenant: counted, fromMs: since - 60_000, toMs: Date.now() + 60_000, stepMs: 60_000 };
    const series = await queryUsage({ kind: "system", label: "test" }, query);
    expect(sumUsage(series.points)).toEqual({ allowed: tally.allowed, rejected: tally.rejected });
  });
});
