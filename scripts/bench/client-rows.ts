import { createClient, type CheckRequest } from "@sluice/client";
import { clientCall, localDeny, rawCall, rawVersusClient, timeCalls, type CallTimes } from "./client-measure";
import type { Row } from "./report";

// The client rows of `npm run bench`, measured from the bench process itself against the
// app: (k) a raw fetch of /api/check, (k') @sluice/client's check() of the same dry-run
// check (its note: the client's overhead per call), and (k'') a denied key answered by the
// client's local deny cache. Sequential calls (1 in flight), so p50/p99 are per call;
// server and Redis CPU are not attributed (the load is one caller, not the server's).

const CALLS = Number(process.env.BENCH_CLIENT_CALLS ?? 2_000);

function row(id: string, what: string, times: CallTimes, note: string): Row {
  const rps = 1e6 / times.usPerCall;
  return {
    id,
    what,
    rps,
    cps: rps,
    p50: times.p50,
    p99: times.p99,
    serverUs: NaN,
    redisUs: NaN,
    clientUs: NaN,
    note,
  };
}

export async function clientRows(
  url: string,
  token: string,
  allowed: CheckRequest,
  denied: CheckRequest,
  rounds: number,
): Promise<Row[]> {
  const target = { url, token };
  const check = { ...allowed, dryRun: true };
  const raw = rawCall(target, check);
  const viaClient = clientCall(createClient({ ...target, timeoutMs: 5_000 }), check);
  await timeCalls(raw, 300, 1); // warm the connections of both
  await timeCalls(viaClient, 300, 1);
  const pair = await rawVersusClient(raw, viaClient, Math.max(rounds, 1), CALLS, 1);
  const deny = await localDeny(target, denied);
  const overhead = (pair.client.usPerCall - pair.raw.usPerCall).toFixed(1);
  return [
    row(
      "(k)",
      "raw fetch of /api/check from one process, 1 in flight",
      pair.raw,
      "dry run; baseline of (k')",
    ),
    row(
      "(k')",
      "@sluice/client check(), same check",
      pair.client,
      `client overhead ${overhead} µs/call vs (k)`,
    ),
    {
      ...row("(k'')", "@sluice/client, denied key, local deny path", deny.local, ""),
      rps: deny.callsPerSec,
      cps: deny.callsPerSec,
      note: `no request sent; asking Sluice instead: ${deny.remote.usPerCall.toFixed(1)} µs/call`,
    },
  ];
}
