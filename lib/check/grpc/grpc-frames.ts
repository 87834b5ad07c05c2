import "server-only";
import type { ServerHttp2Stream } from "node:http2";
import { createGunzip, createInflate } from "node:zlib";
import { GrpcStatus } from "@/lib/check/grpc/grpc-status";

// A unary call's request message out of its HTTP/2 stream: gRPC's length-prefixed frames
// (1 byte compressed flag, 4 bytes big-endian length, the message), read until the client
// half-closes, as grpc-js's server reads them: exactly one message, at most the size limit
// (checked on the prefix, before the body arrives), compressed with grpc-encoding's gzip
// or deflate when the flag says so. The grpc-timeout header read the same way too.

export type Unary = { ok: true; message: Buffer } | { ok: false; code: GrpcStatus; details: string };

const TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };

/** A grpc-timeout value in ms (as grpc-js rounds it), or null when it is none. */
export function deadlineMs(value: string): number | null {
  const match = TIMEOUT.exec(value);
  if (match === null) return null;
  return (Number(match[1]) * (UNIT_MS[match[2] as string] as number)) | 0;
}

function inflate(body: Buffer, encoding: string, max: number, done: (read: Unary) => void): void {
  const zlib = encoding === "gzip" ? createGunzip() : createInflate();
  const parts: Buffer[] = [];
  let total = 0;
  let settled = false;
  const settle = (read: Unary): void => {
    if (settled) return;
    settled = true;
    done(read);
  };
  zlib.on("error", () =>
    settle({ ok: false, code: GrpcStatus.INTERNAL, details: "Failed to decompress message" }),
  );
  zlib.on("data", (chunk: Buffer) => {
    parts.push(chunk);
    total += chunk.length;
    if (total > max) {
      zlib.destroy();
      settle({
        ok: false,
        code: GrpcStatus.RESOURCE_EXHAUSTED,
        details: `Received message that decompresses to a size larger than ${max}`,
      });
    }
  });
  zlib.on("end", () => settle({ ok: true, message: Buffer.concat(parts) }));
  zlib.end(body);
}

/** Calls `done` once: with the one message when the client half-closes, or with the error. */
export function readUnaryMessage(
  stream: ServerHttp2Stream,
  encoding: string,
  max: number,
  done: (read: Unary) => void,
): void {
  let buffered: Buffer | null = null;
  let message: Buffer | null = null;
  let compressed = false;
  let failed = false;
  const refuse = (code: GrpcStatus, details: string): void => {
    failed = true;
    stream.resume();
    done({ ok: false, code, details });
  };
  stream.on("data", (chunk: Buffer) => {
    if (failed) return;
    let rest: Buffer = buffered === null ? chunk : Buffer.concat([buffered, chunk]);
    // every whole frame in what has come: the first is the message, a second one is refused
    while (rest.length >= 5) {
      const size = rest.readUInt32BE(1);
      if (size > max)
        return refuse(GrpcStatus.RESOURCE_EXHAUSTED, `Received message larger than max (${size} vs ${max})`);
      if (rest.length < 5 + size) break;
      if (message !== null)
        return refuse(
          GrpcStatus.UNIMPLEMENTED,
          "Received a second request message for unary method ShouldRateLimit",
        );
      compressed = rest[0] === 1;
      message = rest.subarray(5, 5 + size);
      rest = rest.subarray(5 + size);
    }
    buffered = rest.length === 0 ? null : rest;
  });
  stream.on("end", () => {
    if (failed) return;
    if (message === null)
      return done({
        ok: false,
        code: GrpcStatus.UNIMPLEMENTED,
        details: "Received no request message for unary method ShouldRateLimit",
      });
    if (!compressed || encoding === "identity") return done({ ok: true, message });
    if (encoding === "gzip" || encoding === "deflate") return inflate(message, encoding, max, done);
    done({
      ok: false,
      code: GrpcStatus.UNIMPLEMENTED,
      details: `Received message compressed with unsupported encoding "${encoding}"`,
    });
  });
}
