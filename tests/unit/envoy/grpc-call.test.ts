import { connect, createServer, type ClientHttp2Session, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RLS_METHOD_PATH, serveCall } from "@/lib/check/grpc/grpc-call";
import { deadlineMs } from "@/lib/check/grpc/grpc-frames";
import { encodeRlsResponse, type WireRequest } from "@/lib/check/grpc/rls-codec";
import type { RlsCall, RlsReply } from "@/lib/check/grpc/rls-handler";
import { waitFor } from "../../wait-for";

// One gRPC call on a real node:http2 server and client, with a handler of the test's own in
// place of the check: what grpc-js's server answered (and the front answers now) for each way
// a call can go: a response with trailers, trailers-only errors, deadlines, size limits,
// frames split, doubled, missing or compressed, and a client that goes away.

const MAX = 1024;
const OK_FRAME = encodeRlsResponse({
  overall_code: "OK",
  statuses: [{ code: "OK" }],
  response_headers_to_add: [],
});

interface Seen {
  headers: Record<string, string | string[] | undefined>;
  request: WireRequest;
  reply: RlsReply;
}
const calls: Seen[] = [];
/** per domain: answer at once, fail, or keep the reply for the test */
const handler: RlsCall = (headers, request, reply) => {
  calls.push({ headers, request, reply });
  if (request.domain === "ok") reply.ok(OK_FRAME);
  else if (request.domain === "fail") reply.fail(7, 'no: é 100% "sure"');
  else if (request.domain === "big") reply.ok(Buffer.alloc(5 + MAX + 1));
};

let server: Http2Server;
let session: ClientHttp2Session;

beforeAll(async () => {
  server = createServer();
  server.on("stream", (stream, headers) => serveCall(stream, headers, handler, { maxMessageBytes: MAX }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  session.close();
  await new Promise((resolve) => server.close(resolve));
});

const text = (s: string): number[] => [...Buffer.from(s)];
/** RateLimitRequest { domain } */
const request = (domain: string): Buffer => Buffer.from([0x0a, domain.length, ...text(domain)]);
function frame(message: Buffer, compressed = false): Buffer {
  const prefix = Buffer.alloc(5);
  prefix[0] = compressed ? 1 : 0;
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

interface Answer {
  status: number;
  grpcStatus: string | undefined;
  grpcMessage: string | undefined;
  body: Buffer;
  trailersOnly: boolean;
}

function call(chunks: Buffer[], headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": RLS_METHOD_PATH,
      "content-type": "application/grpc",
      te: "trailers",
      ...headers,
    });
    const body: Buffer[] = [];
    const answer: Answer = {
      status: 0,
      grpcStatus: undefined,
      grpcMessage: undefined,
      body: Buffer.alloc(0),
      trailersOnly: false,
    };
    stream.on("response", (head) => {
      answer.status = Number(head[":status"]);
      if (head["grpc-status"] !== undefined) {
        answer.trailersOnly = true;
        answer.grpcStatus = String(head["grpc-status"]);
        answer.grpcMessage = String(head["grpc-message"]);
      }
    });
    stream.on("trailers", (trailers) => {
      answer.grpcStatus = String(trailers["grpc-status"]);
      answer.grpcMessage = String(trailers["grpc-message"]);
    });
    stream.on("data", (chunk: Buffer) => body.push(chunk));
    stream.on("end", () => resolve({ ...answer, body: Buffer.concat(body) }));
    stream.on("error", reject);
    for (const chunk of chunks.slice(0, -1)) stream.write(chunk);
    stream.end(chunks.at(-1));
  });
}

describe("a ShouldRateLimit call on node:http2", () => {
  it("answers headers, one frame, then grpc-status 0 in trailers; metadata reaches the handler", async () => {
    const answer = await call([frame(request("ok"))], { authorization: "Bearer t" });
    expect(answer).toMatchObject({ status: 200, grpcStatus: "0", grpcMessage: "OK", trailersOnly: false });
    expect(answer.body.equals(OK_FRAME)).toBe(true);
    expect(calls.at(-1)?.headers.authorization).toBe("Bearer t");
  });

  it("reads a message split over several DATA frames", async () => {
    const whole = frame(request("ok"));
    const answer = await call([whole.subarray(0, 2), whole.subarray(2, 7), whole.subarray(7)]);
    expect(answer.grpcStatus).toBe("0");
  });

  it("answers an error trailers-only, its message percent-encoded as grpc-js does", async () => {
    const answer = await call([frame(request("fail"))]);
    expect(answer).toMatchObject({ status: 200, grpcStatus: "7", trailersOnly: true });
    expect(answer.grpcMessage).toBe(encodeURI('no: é 100% "sure"'));
    expect(answer.body.length).toBe(0);
  });

  it("HTTP 415 for a content-type that is not gRPC, UNIMPLEMENTED for another method", async () => {
    expect((await call([frame(request("ok"))], { "content-type": "application/json" })).status).toBe(415);
    const other = await call([frame(request("ok"))], {
      ":path": "/envoy.service.ratelimit.v3.RateLimitService/Other",
    });
    expect(other).toMatchObject({ grpcStatus: "12", trailersOnly: true });
  });

  it("DEADLINE_EXCEEDED when grpc-timeout passes first; the late answer goes nowhere", async () => {
    const answer = await call([frame(request("hold"))], { "grpc-timeout": "50m" });
    expect(answer).toMatchObject({ grpcStatus: "4", grpcMessage: "Deadline%20exceeded" });
    const held = calls.at(-1) as Seen;
    expect(held.request.domain).toBe("hold");
    held.reply.ok(OK_FRAME);
    held.reply.fail(13, "too late");
    // the connection still serves
    expect((await call([frame(request("ok"))])).grpcStatus).toBe("0");
  });

  it("reads grpc-timeout as grpc-js does; a value that is none INTERNAL", async () => {
    expect(deadlineMs("20m")).toBe(20);
    expect(deadlineMs("2S")).toBe(2000);
    expect(deadlineMs("1H")).toBe(3_600_000);
    expect(deadlineMs("5000u")).toBe(5);
    expect(deadlineMs("soon")).toBeNull();
    expect((await call([frame(request("ok"))], { "grpc-timeout": "soon" })).grpcStatus).toBe("13");
  });

  it("RESOURCE_EXHAUSTED for a message past the limit, read from its prefix; and for an answer past it", async () => {
    const prefix = Buffer.from([0, 0, 0, 0, 0]);
    prefix.writeUInt32BE(MAX + 1, 1);
    const received = await call([prefix]);
    expect(received).toMatchObject({ grpcStatus: "8" });
    expect(decodeURI(received.grpcMessage ?? "")).toBe(
      `Received message larger than max (${MAX + 1} vs ${MAX})`,
    );
    expect((await call([frame(request("big"))])).grpcStatus).toBe("8");
  });

  it("INTERNAL for bytes that are no RateLimitRequest, before the handler sees them", async () => {
    const before = calls.length;
    // domain: a length of 5 with one byte after it
    const answer = await call([frame(Buffer.from([0x0a, 0x05, 0x61]))]);
    expect(answer).toMatchObject({ grpcStatus: "13", grpcMessage: "Error%20deserializing%20request" });
    expect(calls.length).toBe(before);
  });

  it("UNIMPLEMENTED for no message, a frame cut short, or a second message, as grpc-js says for a unary call", async () => {
    expect((await call([Buffer.alloc(0)])).grpcStatus).toBe("12");
    expect((await call([frame(request("ok")).subarray(0, 6)])).grpcStatus).toBe("12");
    expect((await call([frame(request("ok")), frame(request("ok"))])).grpcStatus).toBe("12");
  });

  it("inflates a gzip or deflate message; UNIMPLEMENTED for another encoding", async () => {
    const gz = await call([frame(gzipSync(request("ok")), true)], { "grpc-encoding": "gzip" });
    expect(gz.grpcStatus).toBe("0");
    expect(calls.at(-1)?.request.domain).toBe("ok");
    const bad = await call([frame(Buffer.from([1, 2, 3]), true)], { "grpc-encoding": "gzip" });
    expect(bad.grpcStatus).toBe("13");
    const other = await call([frame(request("ok"), true)], { "grpc-encoding": "br" });
    expect(other.grpcStatus).toBe("12");
  });

  it("answers nothing to a client that cancelled, and serves on", async () => {
    const before = calls.length;
    const stream = session.request({
      ":method": "POST",
      ":path": RLS_METHOD_PATH,
      "content-type": "application/grpc",
    });
    stream.on("error", () => {});
    stream.end(frame(request("hold")));
    await waitFor(() => calls.length > before, "the call to reach the handler", 5_000);
    stream.close();
    await waitFor(() => stream.closed, "the stream to close", 5_000);
    (calls.at(-1) as Seen).reply.ok(OK_FRAME);
    expect((await call([frame(request("ok"))])).grpcStatus).toBe("0");
  });
});
