import { afterAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { startGrpcServer, type GrpcFront } from "@/lib/check/grpc/grpc-front";
import { encodeRlsResponse, type WireRequest } from "@/lib/check/grpc/rls-codec";
import type { RlsCall, RlsReply } from "@/lib/check/grpc/rls-handler";
import { closeRlsClients, shouldRateLimit } from "../../integration/envoy/rls-client";
import { waitFor } from "../../wait-for";

// The gRPC server around a handler of the test's own, called by a grpc-js client built from
// Envoy's proto set (tests/fixtures/envoy-proto): what Envoy reads of an answer, the
// metadata and request the handler gets, and stop(): calls in flight are answered, then the
// server closes; a call never answered is cut at the grace.

interface Held {
  headers: Record<string, string | string[] | undefined>;
  request: WireRequest;
  reply: RlsReply;
}
const held: Held[] = [];
const handler: RlsCall = (headers, request, reply) => {
  held.push({ headers, request, reply });
};
const ANSWER = encodeRlsResponse({
  overall_code: "OVER_LIMIT",
  statuses: [
    {
      code: "OVER_LIMIT",
      current_limit: { name: "per-ip", requests_per_unit: 2, unit: "HOUR" },
      limit_remaining: 0,
      duration_until_reset: { seconds: 12, nanos: 500_000_000 },
    },
  ],
  response_headers_to_add: [{ key: "retry-after", value: "13" }],
});

const servers: GrpcFront[] = [];
async function server(): Promise<string> {
  const started = await startGrpcServer(handler, "127.0.0.1", 0);
  servers.push(started);
  return `127.0.0.1:${started.port}`;
}

afterAll(async () => {
  closeRlsClients();
  await Promise.all(servers.map((s) => s.stop(0)));
});

const request = {
  domain: "edge",
  hits_addend: 2,
  descriptors: [{ entries: [{ key: "remote_address", value: "192.0.2.1" }], hits_addend: { value: 3 } }],
};

describe("the gRPC server with an Envoy-built client", () => {
  it("hands the handler the request and metadata, and the client reads the answer", async () => {
    const address = await server();
    const before = held.length;
    const outcome = shouldRateLimit(request, { authorization: "Bearer abc" }, address);
    await waitFor(() => held.length > before, "the call to reach the handler", 5_000);
    const call = held.at(-1) as Held;
    expect(call.request).toEqual({
      domain: "edge",
      hits_addend: 2,
      descriptors: [{ entries: [{ key: "remote_address", value: "192.0.2.1" }], hits_addend: { value: 3 } }],
    });
    expect(call.headers.authorization).toBe("Bearer abc");
    call.reply.ok(ANSWER);
    const answer = await outcome;
    if (!answer.ok) throw new Error(`gRPC error ${answer.code}`);
    expect(answer.response).toMatchObject({
      overall_code: "OVER_LIMIT",
      statuses: [
        {
          code: "OVER_LIMIT",
          current_limit: { name: "per-ip", requests_per_unit: 2, unit: "HOUR" },
          limit_remaining: 0,
          duration_until_reset: { seconds: 12, nanos: 500_000_000 },
        },
      ],
      response_headers_to_add: [{ key: "retry-after", value: "13" }],
    });
  });

  it("gives the client the status and message of an error", async () => {
    const address = await server();
    const before = held.length;
    const outcome = shouldRateLimit(request, {}, address);
    await waitFor(() => held.length > before, "the call to reach the handler", 5_000);
    (held.at(-1) as Held).reply.fail(status.UNAUTHENTICATED, "Send a service token: é");
    expect(await outcome).toEqual({
      ok: false,
      code: status.UNAUTHENTICATED,
      details: "Send a service token: é",
    });
  });

  it("stop() answers the call in flight, then closes; a call never answered is cut at the grace", async () => {
    const front = await startGrpcServer(handler, "127.0.0.1", 0);
    const address = `127.0.0.1:${front.port}`;
    const before = held.length;
    const first = shouldRateLimit(request, {}, address);
    await waitFor(() => held.length > before, "the call to reach the handler", 5_000);
    let stopped = false;
    const stopping = front.stop(60_000).then(() => (stopped = true));
    // still open while its call waits
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    (held.at(-1) as Held).reply.ok(ANSWER);
    expect((await first).ok).toBe(true);
    await stopping;

    const other = await startGrpcServer(handler, "127.0.0.1", 0);
    const count = held.length;
    const never = shouldRateLimit(request, {}, `127.0.0.1:${other.port}`);
    await waitFor(() => held.length > count, "the call to reach the handler", 5_000);
    await other.stop(50);
    expect(await never).toMatchObject({ ok: false });
  });
});
