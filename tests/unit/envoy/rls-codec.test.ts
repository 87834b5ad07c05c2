import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSync, type MethodDefinition, type Options } from "@grpc/proto-loader";
import { decodeRlsRequest, encodeRlsResponse } from "@/lib/check/grpc/rls-codec";
import { WireError, WireReader } from "@/lib/check/grpc/proto-wire";
import type { RlsResponse } from "@/lib/check/grpc/rls-response";

// The hand-written ShouldRateLimit codec against protobufjs (through @grpc/proto-loader, as the
// grpc-js server read and wrote these messages before) on the project's proto/: the same
// requests decoded alike, responses read back as written, unknown fields skipped by wire
// type at every level, and truncated input refused exactly where protobufjs refuses it.

const PROTO_DIR = fileURLToPath(new URL("../../../proto", import.meta.url));
const SERVICE = "envoy.service.ratelimit.v3.RateLimitService";

function method(options: Options): MethodDefinition<object, object> {
  const definition = loadSync("envoy/service/ratelimit/v3/rls.proto", {
    ...options,
    includeDirs: [PROTO_DIR],
  });
  const service = definition[SERVICE] as unknown as Record<string, MethodDefinition<object, object>>;
  return service.ShouldRateLimit as MethodDefinition<object, object>;
}

/** The options the grpc-js server decoded requests with: only the fields present. */
const asServed = method({
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: false,
  arrays: true,
  oneofs: false,
});
/** Every field, defaults included: what a client reads. */
const asRead = method({ keepCase: true, longs: Number, enums: String, defaults: true, arrays: true });

const REQUESTS: object[] = [
  { domain: "edge_proxy", descriptors: [{ entries: [{ key: "generic_key", value: "foo" }] }] },
  {
    domain: "acme",
    hits_addend: 7,
    descriptors: [
      {
        entries: [
          { key: "remote_address", value: "192.0.2.1" },
          { key: "path", value: "/v1/é ü 漢" },
        ],
      },
      { entries: [{ key: "header_match" }], hits_addend: { value: 0 } },
      { entries: [{ key: "k", value: "v".repeat(300) }], hits_addend: { value: 123_456 } },
      // a per-request override: skipped (the configured limits apply)
      { entries: [{ key: "k", value: "" }], limit: { requests_per_unit: 5, unit: "MINUTE" } },
    ],
  },
  { domain: "", descriptors: [] },
  { descriptors: [{ entries: [] }] },
];

/** What protobufjs reads, without the override Sluice skips. */
function served(bytes: Buffer): unknown {
  const request = asServed.requestDeserialize(bytes) as { descriptors: Array<Record<string, unknown>> };
  for (const descriptor of request.descriptors) delete descriptor.limit;
  return { ...request };
}

const varint = (value: number): number[] => {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  return [...out, rest];
};
const len = (field: number, body: number[]): number[] => [
  ...varint(field * 8 + 2),
  ...varint(body.length),
  ...body,
];
const text = (s: string): number[] => [...Buffer.from(s, "utf8")];
/** One unknown field of each wire type (numbers Sluice's messages do not use). */
const UNKNOWN = [
  // varint
  ...[...varint(90 * 8), ...varint(2 ** 40)],
  // fixed64
  ...[...varint(91 * 8 + 1), ...[1, 2, 3, 4, 5, 6, 7, 8]],
  // length-delimited
  ...len(92, text("ignored")),
  // fixed32
  ...[...varint(93 * 8 + 5), ...[1, 2, 3, 4]],
  // a group holding a varint and a length-delimited field
  ...[...varint(94 * 8 + 3), ...varint(95 * 8), 1, ...len(96, [1, 2]), ...varint(94 * 8 + 4)],
];

describe("the RateLimitRequest decoder", () => {
  it("reads what protobufjs writes as protobufjs reads it", () => {
    for (const request of REQUESTS) {
      const bytes = asServed.requestSerialize(request);
      expect(decodeRlsRequest(bytes)).toEqual(served(bytes));
    }
  });

  it("skips unknown fields of every wire type, at every level, and known numbers sent with another type", () => {
    const entry = [...len(1, text("generic_key")), ...UNKNOWN, ...len(2, text("foo"))];
    const wrapper = [...UNKNOWN, ...varint(8), 4];
    const descriptor = [...UNKNOWN, ...len(1, entry), ...len(3, wrapper), ...varint(1 * 8), 9];
    const request = [...len(1, text("acme")), ...UNKNOWN, ...len(2, descriptor), ...varint(3 * 8 + 2), 0];
    expect(decodeRlsRequest(Buffer.from(request))).toEqual({
      domain: "acme",
      descriptors: [{ entries: [{ key: "generic_key", value: "foo" }], hits_addend: { value: 4 } }],
    });
  });

  // Stricter than protobufjs in one place: its Buffer reader cuts a string whose length runs
  // past the end short and reads on; the codec refuses it, as protobuf's C++ parser does.
  it("refuses truncated input wherever protobufjs does, and a string cut short, only with a WireError", () => {
    const bytes = asServed.requestSerialize(REQUESTS[1] as object);
    let refused = 0;
    for (let cut = 0; cut < bytes.length; cut++) {
      const prefix = bytes.subarray(0, cut);
      let theirs: unknown = null;
      try {
        theirs = served(prefix);
      } catch {
        theirs = null;
      }
      let ours: unknown = null;
      try {
        ours = decodeRlsRequest(prefix);
      } catch (error) {
        expect(error).toBeInstanceOf(WireError);
      }
      if (ours === null) refused++;
      else expect({ cut, read: ours }).toEqual({ cut, read: theirs });
    }
    expect(refused).toBeGreaterThan(bytes.length / 2);
  });

  it("refuses wire types 6 and 7, an unclosed group and an over-long varint", () => {
    for (const bad of [[0x0e], [0x0f], [...varint(94 * 8 + 3), 8, 1], [0x08, ...Array(10).fill(0xff), 1]])
      expect(() => decodeRlsRequest(Buffer.from(bad))).toThrow(WireError);
  });

  it("reads a uint32 field's low 32 bits, as protobufjs does", () => {
    const bytes = Buffer.from([...varint(3 * 8), ...varint(2 ** 32 + 5)]);
    expect(decodeRlsRequest(bytes).hits_addend).toBe(5);
    expect(new WireReader(Buffer.from(varint(2 ** 52))).varint()).toBe(2 ** 52);
  });
});

const RESPONSES: RlsResponse[] = [
  {
    overall_code: "OK",
    statuses: [
      {
        code: "OK",
        current_limit: { name: "per-ip", requests_per_unit: 2, unit: "HOUR" },
        limit_remaining: 0,
        duration_until_reset: { seconds: 3599, nanos: 250_000_000 },
      },
      { code: "OK" },
      {
        code: "OK",
        current_limit: { name: "odd-ünit", requests_per_unit: 0xffff_ffff, unit: "UNKNOWN" },
        limit_remaining: 0xffff_ffff,
        duration_until_reset: { seconds: 0, nanos: 0 },
      },
    ],
    response_headers_to_add: [
      { key: "ratelimit-policy", value: '"per-ip";q=2;w=3600' },
      { key: "x-é", value: "" },
    ],
  },
  {
    overall_code: "OVER_LIMIT",
    statuses: [
      {
        code: "OVER_LIMIT",
        current_limit: { name: "", requests_per_unit: 0, unit: "WEEK" },
        limit_remaining: 0,
        duration_until_reset: { seconds: 86_400 * 365, nanos: 0 },
      },
    ],
    response_headers_to_add: [],
  },
];

describe("the RateLimitResponse encoder", () => {
  it("writes one gRPC frame that protobufjs reads back as the response", () => {
    for (const response of RESPONSES) {
      const frame = encodeRlsResponse(response);
      expect(frame[0]).toBe(0);
      expect(frame.readUInt32BE(1)).toBe(frame.length - 5);
      const read = asRead.responseDeserialize(frame.subarray(5)) as Record<string, unknown>;
      expect(read).toMatchObject({ ...response, request_headers_to_add: [] });
      // a status without a limit reads as none, as the grpc-js server sent it
      const statuses = read.statuses as Array<Record<string, unknown>>;
      response.statuses.forEach((status, i) => {
        if (status.current_limit === undefined) expect(statuses[i]?.current_limit).toBeNull();
      });
    }
  });

  it("writes the same message protobufjs writes, field for field", () => {
    for (const response of RESPONSES) {
      // (read with defaults: a zero protobufjs writes out and the codec leaves out reads alike)
      const ours = asRead.responseDeserialize(encodeRlsResponse(response).subarray(5));
      const theirs = asRead.responseDeserialize(asServed.responseSerialize(response));
      expect(ours).toEqual(theirs);
    }
  });
});
