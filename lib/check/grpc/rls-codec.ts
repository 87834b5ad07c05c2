import "server-only";
import type { RlsCode, RlsDescriptorStatus, RlsResponse, RlsUnit } from "@/lib/check/grpc/rls-response";
import {
  LEN,
  lenFieldSize,
  stringFieldSize,
  VARINT,
  varintFieldSize,
  WireReader,
  WireWriter,
} from "@/lib/check/grpc/proto-wire";

// ShouldRateLimit's two messages on the wire, by proto/envoy/service/ratelimit/v3/rls.proto's
// field numbers (Envoy's): the request decoded into the shape rls-request.ts validates (as
// @grpc/proto-loader gave it to the grpc-js server before: snake_case, only the fields
// present), the response encoded from rls-response.ts's. Fields Sluice does not read (a
// descriptor's limit override, anything newer) are skipped by wire type; a known field
// sent with another wire type is skipped too, as protobuf's C++ parser treats it.

export interface WireEntry {
  key?: string;
  value?: string;
}

export interface WireDescriptor {
  entries: WireEntry[];
  hits_addend?: { value?: number };
}

export interface WireRequest {
  domain?: string;
  descriptors: WireDescriptor[];
  hits_addend?: number;
}

function entry(reader: WireReader, from: number, to: number): WireEntry {
  const fields = new WireReader(reader.bytes, from, to);
  const out: WireEntry = {};
  while (!fields.done()) {
    const tag = fields.varint();
    const wireType = tag & 7;
    const number = tag >>> 3;
    if (number === 1 && wireType === LEN) out.key = fields.string();
    else if (number === 2 && wireType === LEN) out.value = fields.string();
    else fields.skip(wireType, number);
  }
  return out;
}

function descriptor(reader: WireReader, from: number, to: number): WireDescriptor {
  const fields = new WireReader(reader.bytes, from, to);
  const out: WireDescriptor = { entries: [] };
  while (!fields.done()) {
    const tag = fields.varint();
    const wireType = tag & 7;
    const number = tag >>> 3;
    if (number === 1 && wireType === LEN) {
      const body = fields.length();
      out.entries.push(entry(fields, body.from, body.to));
    } else if (number === 3 && wireType === LEN) {
      // google.protobuf.UInt64Value { uint64 value = 1; }
      const body = fields.length();
      const wrapper = new WireReader(fields.bytes, body.from, body.to);
      const value: { value?: number } = {};
      while (!wrapper.done()) {
        const inner = wrapper.varint();
        if (inner >>> 3 === 1 && (inner & 7) === VARINT) value.value = wrapper.varint();
        else wrapper.skip(inner & 7, inner >>> 3);
      }
      out.hits_addend = value;
    } else fields.skip(wireType, number);
  }
  return out;
}

/** A RateLimitRequest's bytes; throws WireError when they break the wire format. */
export function decodeRlsRequest(bytes: Uint8Array): WireRequest {
  const reader = new WireReader(bytes);
  const out: WireRequest = { descriptors: [] };
  while (!reader.done()) {
    const tag = reader.varint();
    const wireType = tag & 7;
    const number = tag >>> 3;
    if (number === 1 && wireType === LEN) out.domain = reader.string();
    else if (number === 2 && wireType === LEN) {
      const body = reader.length();
      out.descriptors.push(descriptor(reader, body.from, body.to));
    } else if (number === 3 && wireType === VARINT) out.hits_addend = reader.uint32();
    else reader.skip(wireType, number);
  }
  return out;
}

const CODES: Record<RlsCode, number> = { OK: 1, OVER_LIMIT: 2 };
const UNITS: Record<RlsUnit, number> = {
  UNKNOWN: 0,
  SECOND: 1,
  MINUTE: 2,
  HOUR: 3,
  DAY: 4,
  MONTH: 5,
  YEAR: 6,
  WEEK: 7,
};

/** Sizes of one status's parts, measured once and used again when writing. */
interface Sized {
  status: RlsDescriptorStatus;
  size: number;
  limitSize: number;
  nameBytes: number;
  durationSize: number;
}

function sizeStatus(status: RlsDescriptorStatus): Sized {
  let size = varintFieldSize(1, CODES[status.code]);
  let limitSize = 0;
  let nameBytes = 0;
  let durationSize = 0;
  const limit = status.current_limit;
  if (limit !== undefined) {
    nameBytes = Buffer.byteLength(limit.name, "utf8");
    limitSize = stringFieldSize(3, nameBytes) + varintFieldSize(1, limit.requests_per_unit);
    if (UNITS[limit.unit] !== 0) limitSize += varintFieldSize(2, UNITS[limit.unit]);
    size += lenFieldSize(2, limitSize);
  }
  if (status.limit_remaining !== undefined) size += varintFieldSize(3, status.limit_remaining);
  const reset = status.duration_until_reset;
  if (reset !== undefined) {
    if (reset.seconds !== 0) durationSize += varintFieldSize(1, reset.seconds);
    if (reset.nanos !== 0) durationSize += varintFieldSize(2, reset.nanos);
    size += lenFieldSize(4, durationSize);
  }
  return { status, size, limitSize, nameBytes, durationSize };
}

function writeStatus(writer: WireWriter, sized: Sized): void {
  const { status } = sized;
  writer.tag(2, LEN);
  writer.varint(sized.size);
  writer.tag(1, VARINT);
  writer.varint(CODES[status.code]);
  const limit = status.current_limit;
  if (limit !== undefined) {
    writer.tag(2, LEN);
    writer.varint(sized.limitSize);
    writer.string(3, limit.name, sized.nameBytes);
    writer.tag(1, VARINT);
    writer.varint(limit.requests_per_unit);
    if (UNITS[limit.unit] !== 0) {
      writer.tag(2, VARINT);
      writer.varint(UNITS[limit.unit]);
    }
  }
  if (status.limit_remaining !== undefined) {
    writer.tag(3, VARINT);
    writer.varint(status.limit_remaining);
  }
  const reset = status.duration_until_reset;
  if (reset !== undefined) {
    writer.tag(4, LEN);
    writer.varint(sized.durationSize);
    if (reset.seconds !== 0) {
      writer.tag(1, VARINT);
      writer.varint(reset.seconds);
    }
    if (reset.nanos !== 0) {
      writer.tag(2, VARINT);
      writer.varint(reset.nanos);
    }
  }
}

/**
 * A RateLimitResponse in a gRPC frame: the 5-byte prefix (uncompressed, big-endian length)
 * and the message, in one buffer. Numbers are whole and non-negative (rls-response.ts clamps
 * them to uint32; a Duration's seconds and nanos are never negative there).
 */
export function encodeRlsResponse(response: RlsResponse): Buffer {
  let size = varintFieldSize(1, CODES[response.overall_code]);
  const statuses = response.statuses.map(sizeStatus);
  for (const sized of statuses) size += lenFieldSize(2, sized.size);
  const headers = response.response_headers_to_add;
  const headerSizes = new Array<number>(headers.length * 3);
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i] as (typeof headers)[number];
    const keyBytes = Buffer.byteLength(header.key, "utf8");
    const valueBytes = Buffer.byteLength(header.value, "utf8");
    const body = stringFieldSize(1, keyBytes) + stringFieldSize(2, valueBytes);
    headerSizes[i * 3] = keyBytes;
    headerSizes[i * 3 + 1] = valueBytes;
    headerSizes[i * 3 + 2] = body;
    size += lenFieldSize(3, body);
  }
  const frame = Buffer.allocUnsafe(5 + size);
  frame[0] = 0;
  frame.writeUInt32BE(size, 1);
  const writer = new WireWriter(frame);
  writer.at = 5;
  writer.tag(1, VARINT);
  writer.varint(CODES[response.overall_code]);
  for (const sized of statuses) writeStatus(writer, sized);
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i] as (typeof headers)[number];
    writer.tag(3, LEN);
    writer.varint(headerSizes[i * 3 + 2] as number);
    writer.string(1, header.key, headerSizes[i * 3] as number);
    writer.string(2, header.value, headerSizes[i * 3 + 1] as number);
  }
  return frame;
}
