// Phases (r) and (rh) of npm run bench: Envoy's ShouldRateLimit over gRPC with 3 descriptors
// a request (h2load, HTTP/2, a hand-encoded RateLimitRequest) against POST /api/check making
// the very same checks one a request (wrk), in checks/s. Goal: (r) >= 0.9x (rh). h2load is
// Debian's nghttp2-client (bench.sh installs it); it counts HTTP/2 answers, so one call is
// made first and must answer grpc-status 0 with three OK statuses.
import { execFile } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Principal } from "@/lib/shared/principal";
import type { App } from "./app-server";
import type { AppPhase } from "./ab-base";
import { describe, outcomes } from "./app-metrics";
import { cpuMicros, endedChildrenCpuMicros } from "./cpu";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

const run = promisify(execFile);
const bench: Principal = { kind: "system", label: "bench" };
const TENANT = "bench-envoy";
const VALUES = ["a", "b", "c"];
const DESCRIPTORS = VALUES.length;
const METHOD_PATH = "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";
/** 50 requests in flight as wrk's 50 connections, over 5 HTTP/2 connections as a proxy keeps */
const CONNECTIONS = 5;
const STREAMS = 10;

/** The tenant: one limit per descriptor's route (never reached), on the bench plan. */
export async function seedGrpc(): Promise<void> {
  const { importConfig } = await import("@/lib/control/data/import-config");
  await importConfig(bench, {
    tenants: [
      {
        slug: TENANT,
        plan: "bench",
        routes: VALUES.map((value) => ({
          pattern: `* /generic_key/${value}`,
          limits: [
            {
              name: `rl-${value}`,
              by: "tenant",
              algorithm: "fixed_window",
              limit: 1_000_000_000,
              window: "1m",
            },
          ],
        })),
      },
    ],
  });
}

const varint = (n: number): number[] => (n < 128 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const field = (number: number, body: number[]): number[] => [
  ...varint((number << 3) | 2),
  ...varint(body.length),
  ...body,
];
const text = (s: string): number[] => [...Buffer.from(s, "utf8")];

/** RateLimitRequest { domain, descriptors: [{ entries: [{ generic_key, a|b|c }] }] } in a gRPC frame. */
function requestFrame(): Buffer {
  const descriptors = VALUES.flatMap((value) =>
    field(2, field(1, [...field(1, text("generic_key")), ...field(2, text(value))])),
  );
  const message = Buffer.from([...field(1, text(TENANT)), ...descriptors]);
  const frame = Buffer.alloc(5);
  frame.writeUInt32BE(message.length, 1);
  return Buffer.concat([frame, message]);
}

/** The same checks as /api/check bodies, one a request. */
const httpBodies = VALUES.map((value) =>
  JSON.stringify({ tenant: TENANT, route: `POST /generic_key/${value}`, subject: `/generic_key/${value}` }),
);

/** One call: throws unless it answers grpc-status 0 and OK (overall_code 1) first. */
async function probe(address: string, token: string): Promise<void> {
  const session = connect(`http://${address}`);
  try {
    const { status, body } = await new Promise<{ status: string; body: Buffer }>((resolve, reject) => {
      const stream = session.request({
        ":method": "POST",
        ":path": METHOD_PATH,
        "content-type": "application/grpc",
        te: "trailers",
        authorization: `Bearer ${token}`,
      });
      const chunks: Buffer[] = [];
      let grpcStatus = "";
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("trailers", (trailers) => (grpcStatus = String(trailers["grpc-status"])));
      stream.on("end", () => resolve({ status: grpcStatus, body: Buffer.concat(chunks) }));
      stream.on("error", reject);
      stream.end(requestFrame());
    });
    // overall_code = 1 (field 1, varint: 0x08 0x01) leads the message after the 5-byte frame
    if (status !== "0" || body[5] !== 0x08 || body[6] !== 0x01)
      throw new Error(`ShouldRateLimit probe: grpc-status ${status}`);
  } finally {
    session.close();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

/** h2load for `seconds`: req/s, latencies (from its per-request log), failures, its CPU. */
async function h2load(address: string, token: string, seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), "sluice-h2load-"));
  const data = join(dir, "request.bin");
  const logFile = join(dir, "requests.log");
  writeFileSync(data, requestFrame());
  try {
    const client0 = endedChildrenCpuMicros();
    const { stdout } = await run(
      "h2load",
      [
        "-c",
        String(CONNECTIONS),
        "-m",
        String(STREAMS),
        "-D",
        String(seconds),
        "-d",
        data,
        "--log-file",
        logFile,
        "-H",
        "content-type: application/grpc",
        "-H",
        "te: trailers",
        "-H",
        `authorization: Bearer ${token}`,
        `http://${address}${METHOD_PATH}`,
      ],
      { maxBuffer: 1 << 22 },
    );
    const done =
      /requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(
        stdout,
      );
    // each line: start time (µs since epoch), HTTP status, duration (µs)
    const latencies = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => Number(line.split("\t")[2]) / 1000)
      .sort((x, y) => x - y);
    return {
      rps: Number(done?.[2] ?? Number.NaN) / seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      failures: done ? Number(done[3]) + Number(done[4]) + Number(done[5]) : Number.NaN,
      clientCpu: endedChildrenCpuMicros() - client0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function grpcPhases(options: {
  app: () => App;
  appPhase: AppPhase;
  token: string;
  redisPid: number | undefined;
  seconds: number;
  log: (text: string) => void;
}): Phase[] {
  const { app, appPhase, token, redisPid, seconds, log } = options;
  const rls = async (): Promise<Measured> => {
    const { grpc, url, pid } = app();
    const name = `(r) ShouldRateLimit, ${DESCRIPTORS} descriptors`;
    log(`${name}: warm-up 1 s, then ${seconds} s`);
    await probe(grpc, token);
    await h2load(grpc, token, 1);
    const before = await outcomes(url);
    const [server0, redis0] = [cpuMicros(pid), cpuMicros(redisPid)];
    const result = await h2load(grpc, token, seconds);
    const [server1, redis1] = [cpuMicros(pid), cpuMicros(redisPid)];
    if (result.failures > 0) log(`${name}: ${result.failures} failed requests`);
    const note = describe(before, await outcomes(url));
    return { ...result, serverCpu: server1 - server0, redisCpu: redis1 - redis0, note, seconds };
  };
  return [
    { id: "rls", run: rls },
    { id: "rlsh", run: () => appPhase("(rh) /api/check, the same checks", "/api/check", httpBodies) },
  ];
}

export function grpcRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(
      get("rls"),
      "(r)",
      `gRPC ShouldRateLimit, ${DESCRIPTORS} descriptors/request, h2load ${CONNECTIONS}x${STREAMS}`,
      undefined,
      DESCRIPTORS,
    ),
    phaseRow(get("rlsh"), "(rh)", "POST /api/check, (r)'s checks one a request"),
  ];
}

/** (r) >= 0.9x (rh) in checks/s. */
export function grpcTarget(r: Measured, rh: Measured): Target {
  const ratio = (r.rps * DESCRIPTORS) / rh.rps;
  return { what: "(r) >= 0.9x (rh) in checks/s", value: `${ratio.toFixed(2)}x`, ok: ratio >= 0.9 };
}
