import { randomBytes } from "node:crypto";
import { createClient, type CheckRequest } from "@sluice/client";
import { clientCall, localDeny, rawCall, rawVersusClient, timeCalls } from "./client-measure";

// `npm run bench:client`: the @sluice/client's cost per call next to a raw fetch of
// /api/check from the same process, against a running Sluice (APP_URL, default
// http://localhost:3000, token SLUICE_TOKEN or SLUICE_BOOTSTRAP_TOKEN, demo data seeded),
// sequential and 50 in flight, and the local deny path. Checks are dry runs of the demo
// tenant (nothing consumed); the deny phase uses a fresh subject of the demo "mobile" key
// (30 per 10 s per subject). Rounds alternate which side goes first; medians are reported.
// `npm run bench` prints the same comparison as its client rows, on its own seeded data.

const target = {
  url: (process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, ""),
  token: process.env.SLUICE_TOKEN ?? process.env.SLUICE_BOOTSTRAP_TOKEN ?? "",
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 2_000);
const IN_FLIGHT = 50;

const check: CheckRequest = { tenant: "acme", route: "GET /v1/items/42", subject: "bench", dryRun: true };

async function main(): Promise<void> {
  if (!target.token) throw new Error("set SLUICE_TOKEN (a service token) or SLUICE_BOOTSTRAP_TOKEN");
  const client = createClient({ ...target, timeoutMs: 5_000, onError: (e) => console.error(e) });
  const [raw, viaClient] = [rawCall(target, check), clientCall(client, check)];
  await timeCalls(raw, 500, 10); // warm up both paths and the connections
  await timeCalls(viaClient, 500, 10);
  const seq = await rawVersusClient(raw, viaClient, ROUNDS, SEQUENTIAL, 1);
  const conc = await rawVersusClient(raw, viaClient, ROUNDS, SEQUENTIAL * 4, IN_FLIGHT);
  const subject = `bench-${randomBytes(4).toString("hex")}`;
  const deny = await localDeny(target, { tenant: "acme", key: "mobile", subject });
  const us = (n: number): string => n.toFixed(1);
  const perSec = (microseconds: number): string => Math.round(1e6 / microseconds).toLocaleString("en-US");
  console.log(
    `\n@sluice/client against ${target.url} (median of ${ROUNDS} rounds; µs are wall time per call)\n`,
  );
  console.log("| phase | raw fetch µs/call | client.check() µs/call | overhead µs/call | client calls/s |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const [name, pair] of [
    ["sequential (1 in flight)", seq],
    [`concurrent (${IN_FLIGHT} in flight)`, conc],
  ] as const) {
    const { raw: r, client: c } = pair;
    console.log(
      `| ${name} | ${us(r.usPerCall)} | ${us(c.usPerCall)} | ${us(c.usPerCall - r.usPerCall)} | ${perSec(c.usPerCall)} |`,
    );
  }
  console.log(
    `| a denied key, local deny path vs asking Sluice | ${us(deny.remote.usPerCall)} | ${us(1e6 / deny.callsPerSec)} | - | ${Math.round(deny.callsPerSec).toLocaleString("en-US")} |`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
