import { randomBytes } from "node:crypto";
import { createClient, type CheckRequest } from "@sluice/client";

// `npm run bench:client`: the @sluice/client's cost per call next to a raw fetch of
// /api/check from the same process, against a running Sluice (APP_URL, default
// http://localhost:3000, token SLUICE_TOKEN or SLUICE_BOOTSTRAP_TOKEN, demo data seeded),
// sequential and 50 in flight, and the local deny path. Checks are dry runs of the demo
// tenant (nothing consumed); the deny phase uses a fresh subject of the demo "mobile" key
// (30 per 10 s per subject). Rounds alternate which side goes first; medians are reported.

const URL_ = (process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const TOKEN = process.env.SLUICE_TOKEN ?? process.env.SLUICE_BOOTSTRAP_TOKEN ?? "";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 2_000);
const CONCURRENT = SEQUENTIAL * 4;
const IN_FLIGHT = 50;

const check: CheckRequest = { tenant: "acme", route: "GET /v1/items/42", subject: "bench", dryRun: true };
const body = JSON.stringify(check);
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

async function raw(): Promise<boolean> {
  const response = await fetch(`${URL_}/api/check`, { method: "POST", headers, body });
  return ((await response.json()) as { allowed: boolean }).allowed;
}

const client = createClient({ url: URL_, token: TOKEN, timeoutMs: 5_000, onError: (e) => console.error(e) });
const viaClient = async (): Promise<boolean> => (await client.check(check)).allowed;

/** µs per call, `total` calls with `parallel` in flight. */
async function run(call: () => Promise<boolean>, total: number, parallel: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < total) await call();
    }),
  );
  return ((performance.now() - started) * 1000) / total;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function pair(total: number, parallel: number): Promise<[number, number]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      a.push(await run(raw, total, parallel));
      b.push(await run(viaClient, total, parallel));
    } else {
      b.push(await run(viaClient, total, parallel));
      a.push(await run(raw, total, parallel));
    }
  }
  return [median(a), median(b)];
}

async function localDeny(): Promise<{ localPerSec: number; serverUs: number }> {
  const denied: CheckRequest = {
    tenant: "acme",
    key: "mobile",
    subject: `bench-${randomBytes(4).toString("hex")}`,
  };
  const local = createClient({
    url: URL_,
    token: TOKEN,
    timeoutMs: 5_000,
    localDenyCache: { maxMs: 60_000 },
  });
  const remote = createClient({ url: URL_, token: TOKEN, timeoutMs: 5_000, localDenyCache: false });
  for (let i = 0; i < 40 && (await local.check(denied)).allowed; i++);
  const first = await local.check(denied);
  if (first.allowed || first.source !== "local") throw new Error("the deny phase found no denial to cache");
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < 1_000) {
    for (let i = 0; i < 1_000; i++) await local.check(denied);
    calls += 1_000;
  }
  const localPerSec = (calls * 1000) / (performance.now() - started);
  const serverUs = await run(async () => (await remote.check(denied)).allowed, 2_000, 1);
  return { localPerSec, serverUs };
}

async function main(): Promise<void> {
  if (!TOKEN) throw new Error("set SLUICE_TOKEN (a service token) or SLUICE_BOOTSTRAP_TOKEN");
  await run(raw, 500, 10); // warm up both paths and the connections
  await run(viaClient, 500, 10);
  const [rawSeq, clientSeq] = await pair(SEQUENTIAL, 1);
  const [rawConc, clientConc] = await pair(CONCURRENT, IN_FLIGHT);
  const deny = await localDeny();
  const us = (n: number): string => n.toFixed(1);
  // wall µs per call over the whole run, so calls/s is its inverse with any number in flight
  const perSec = (microseconds: number): string => Math.round(1e6 / microseconds).toLocaleString("en-US");
  console.log(`\n@sluice/client against ${URL_} (median of ${ROUNDS} rounds; µs are wall time per call)\n`);
  console.log("| phase | raw fetch µs/call | client.check() µs/call | overhead µs/call | client calls/s |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  console.log(
    `| sequential (1 in flight) | ${us(rawSeq)} | ${us(clientSeq)} | ${us(clientSeq - rawSeq)} | ${perSec(clientSeq)} |`,
  );
  console.log(
    `| concurrent (${IN_FLIGHT} in flight) | ${us(rawConc)} | ${us(clientConc)} | ${us(clientConc - rawConc)} | ${perSec(clientConc)} |`,
  );
  console.log(
    `| a denied key, local deny path vs asking Sluice | ${us(deny.serverUs)} | ${us(1e6 / deny.localPerSec)} | - | ${Math.round(deny.localPerSec).toLocaleString("en-US")} |`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
