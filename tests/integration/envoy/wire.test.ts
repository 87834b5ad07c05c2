import { connect, constants } from "node:http2";
import { createConnection } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { unique } from "../check/setup";
import { BOOTSTRAP } from "../check/http";
import { waitFor } from "../../wait-for";
import { closeEnvoyClients, publishDomain } from "./envoy-setup";
import { GRPC_ADDRESS, rateLimited } from "./rls-client";

// Envoy's wire format without any protobuf library: a RateLimitRequest encoded by hand in a
// 5-byte gRPC frame over plain node:http2, its answer decoded by hand. Then what a request
// costs Redis: its descriptors go as one script call.

const domain = unique("wire");

beforeAll(async () => {
  await publishDomain(domain, [
    {
      pattern: "* /generic_key/wire",
      limits: [{ name: "wire", by: "tenant", algorithm: "fixed_window", limit: 5, window: "1m" }],
    },
    {
      pattern: "* /user/:id",
      limits: [{ name: "per-user", by: "subject", algorithm: "fixed_window", limit: 5, window: "1m" }],
    },
  ]);
});

afterAll(closeEnvoyClients);

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** A length-delimited field (wire type 2). */
function field(number: number, bytes: number[] | string): number[] {
  const body = typeof bytes === "string" ? [...Buffer.from(bytes, "utf8")] : bytes;
  return [...varint((number << 3) | 2), ...varint(body.length), ...body];
}

/** A varint field (wire type 0). */
const uint = (number: number, value: number): number[] => [...varint(number << 3), ...varint(value)];

interface Field {
  number: number;
  value: number | Buffer;
}

/** The top-level fields of one protobuf message (varints and length-delimited only). */
function fields(message: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const read = (): number => {
    let value = 0;
    let shift = 1;
    for (;;) {
      const byte = message[at++] as number;
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
      shift *= 128;
    }
  };
  while (at < message.length) {
    const tag = read();
    const number = Math.floor(tag / 8);
    if ((tag & 7) === 0) out.push({ number, value: read() });
    else if ((tag & 7) === 2) {
      const length = read();
      out.push({ number, value: message.subarray(at, at + length) });
      at += length;
    } else throw new Error(`unexpected wire type ${tag & 7}`);
  }
  return out;
}

function post(
  message: number[],
): Promise<{ status: string; body: Buffer; trailers: Record<string, unknown> }> {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt8(0, 0); // not compressed
  frame.writeUInt32BE(message.length, 1);
  Buffer.from(message).copy(frame, 5);
  return new Promise((resolve, reject) => {
    const session = connect(`http://${GRPC_ADDRESS}`);
    session.on("error", reject);
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: "POST",
      [constants.HTTP2_HEADER_PATH]: "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit",
      "content-type": "application/grpc",
      te: "trailers",
      authorization: `Bearer ${BOOTSTRAP}`,
    });
    const chunks: Buffer[] = [];
    let headStatus = "";
    stream.on("response", (headers) => (headStatus = String(headers[constants.HTTP2_HEADER_STATUS])));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("trailers", (trailers) => {
      stream.on("end", () => {
        session.close();
        resolve({ status: headStatus, body: Buffer.concat(chunks), trailers });
      });
    });
    stream.on("error", reject);
    stream.end(frame);
  });
}

describe("the wire format", () => {
  it("answers a hand-encoded RateLimitRequest with a RateLimitResponse Envoy can read", async () => {
    const entry = [...field(1, "generic_key"), ...field(2, "wire")];
    const descriptor = field(1, entry);
    // domain = 1, descriptors = 2, hits_addend = 3 (2 units)
    const request = [...field(1, domain), ...field(2, descriptor), ...uint(3, 2)];
    const answer = await post(request);
    expect(answer.status).toBe("200");
    expect(answer.trailers["grpc-status"]).toBe("0");
    expect(answer.body.readUInt8(0)).toBe(0);
    expect(answer.body.readUInt32BE(1)).toBe(answer.body.length - 5);
    const response = fields(answer.body.subarray(5));
    // overall_code = 1: OK (1)
    expect(response.find((f) => f.number === 1)?.value).toBe(1);
    const statuses = response.filter((f) => f.number === 2);
    expect(statuses).toHaveLength(1);
    const status = fields(statuses[0]!.value as Buffer);
    expect(status.find((f) => f.number === 1)?.value).toBe(1); // code OK
    expect(status.find((f) => f.number === 3)?.value).toBe(3); // limit_remaining: 5 - 2
    const limit = fields(status.find((f) => f.number === 2)!.value as Buffer);
    expect(limit.find((f) => f.number === 1)?.value).toBe(5); // requests_per_unit
    expect(limit.find((f) => f.number === 2)?.value).toBe(2); // unit MINUTE
    expect((limit.find((f) => f.number === 3)?.value as Buffer).toString()).toBe("wire"); // name
    const reset = fields(status.find((f) => f.number === 4)!.value as Buffer);
    expect(reset.find((f) => f.number === 1)?.value).toBeLessThanOrEqual(60); // seconds
    // response_headers_to_add = 3: HeaderValue { key = 1, value = 2 }
    const headers = response
      .filter((f) => f.number === 3)
      .map((f) => fields(f.value as Buffer).map((h) => (h.value as Buffer).toString()));
    expect(headers).toContainEqual(["ratelimit-policy", '"wire";q=5;w=60']);
  });

  it("sends a request's descriptors to Redis as one script call", async () => {
    const url = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:63809");
    // MONITOR over a plain socket: one line per command Redis runs, `+<time> [...] "evalsha" "<sha>" ...`
    const monitor = createConnection(Number(url.port), url.hostname);
    let seen = "";
    monitor.on("data", (chunk: Buffer) => (seen += chunk.toString("latin1")));
    monitor.write("MONITOR\r\n");
    await waitFor(() => seen.startsWith("+OK"), "MONITOR to start", 5_000);
    const other = new Redis(url.href);
    const calls = (): number =>
      [checkScript().sha, checkManyScript().sha]
        .map((sha) => seen.toLowerCase().split(`"evalsha" "${sha}"`).length - 1)
        .reduce((a, b) => a + b, 0);
    try {
      // each descriptor has its own counter (three subjects): nothing for a cache to answer
      const users = ["a", "b", "c"].map((id) => ({
        entries: [{ key: "user", value: `${id}-${Date.now()}` }],
      }));
      const response = await rateLimited(
        { domain, descriptors: users },
        { authorization: `Bearer ${BOOTSTRAP}` },
      );
      expect(response.statuses.map((s) => s.code)).toEqual(["OK", "OK", "OK"]);
      // MONITOR lists commands in the order Redis runs them: once it shows this one, it has
      // shown every call the answer waited for
      await other.echo(domain);
      await waitFor(() => seen.includes(`"echo" "${domain}"`), "the marker in MONITOR", 5_000);
      expect(calls()).toBe(1);
      expect(seen.toLowerCase()).toContain(`"evalsha" "${checkManyScript().sha}"`);
    } finally {
      monitor.destroy();
      other.disconnect();
    }
  });
});
