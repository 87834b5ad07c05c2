import "server-only";
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { GrpcStatus } from "@/lib/check/grpc/grpc-status";
import { WireError } from "@/lib/check/grpc/proto-wire";
import { decodeRlsRequest } from "@/lib/check/grpc/rls-codec";
import type { RlsCall, RlsReply } from "@/lib/check/grpc/rls-handler";
import { deadlineMs, readUnaryMessage, type Unary } from "@/lib/check/grpc/grpc-frames";

// One gRPC call on an HTTP/2 stream, answered as grpc-js's server answers (the front used it
// before; Envoy and grpc-js clients see the same): content-type not application/grpc* is an
// HTTP 415; another path UNIMPLEMENTED; a grpc-timeout that passes DEADLINE_EXCEEDED; a
// message past the size limit RESOURCE_EXHAUSTED; bytes that are no RateLimitRequest
// INTERNAL. An error is a trailers-only answer; a response is headers, one frame, trailers.

export const RLS_METHOD_PATH = "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";

const RESPONSE_HEADERS = {
  ":status": 200,
  "content-type": "application/grpc+proto",
  "grpc-accept-encoding": "identity,deflate,gzip",
  "grpc-encoding": "identity",
} as const;
const OK_TRAILERS = { "grpc-status": "0", "grpc-message": "OK" } as const;

export interface CallLimits {
  maxMessageBytes: number;
}

function ignore(): void {}

/** The OK status once the response frame is written (a listener shared by every call). */
function okTrailers(this: ServerHttp2Stream): void {
  this.sendTrailers(OK_TRAILERS);
}

/** A trailers-only answer: the status in the one HEADERS frame that ends the stream. */
function sendStatus(stream: ServerHttp2Stream, code: GrpcStatus, details: string): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond(
    { ...RESPONSE_HEADERS, "grpc-status": String(code), "grpc-message": encodeURI(details) },
    { endStream: true },
  );
}

export function serveCall(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  handler: RlsCall,
  limits: CallLimits,
): void {
  stream.on("error", ignore);
  const contentType = headers["content-type"];
  if (typeof contentType !== "string" || !contentType.startsWith("application/grpc")) {
    stream.respond({ ":status": 415 }, { endStream: true });
    return;
  }
  const path = headers[":path"];
  if (path !== RLS_METHOD_PATH) {
    sendStatus(stream, GrpcStatus.UNIMPLEMENTED, `The server does not implement the method ${String(path)}`);
    stream.resume();
    return;
  }
  let finished = false;
  let timer: NodeJS.Timeout | null = null;
  const finish = (): boolean => {
    if (finished) return false;
    finished = true;
    if (timer !== null) clearTimeout(timer);
    return !(stream.destroyed || stream.closed);
  };
  const fail = (code: GrpcStatus, details: string): void => {
    if (finish()) sendStatus(stream, code, details);
  };
  const timeout = headers["grpc-timeout"];
  if (timeout !== undefined) {
    const ms = deadlineMs(String(timeout));
    if (ms === null) {
      fail(GrpcStatus.INTERNAL, `Invalid grpc-timeout value "${String(timeout)}"`);
      stream.resume();
      return;
    }
    timer = setTimeout(() => fail(GrpcStatus.DEADLINE_EXCEEDED, "Deadline exceeded"), ms);
    // a client that resets the stream (cancels) ends its deadline too; without one, finish()
    // sees the closed stream when the answer comes
    stream.once("close", () => {
      finished = true;
      if (timer !== null) clearTimeout(timer);
    });
  }
  const reply: RlsReply = {
    ok(frame) {
      if (frame.length - 5 > limits.maxMessageBytes) {
        fail(
          GrpcStatus.RESOURCE_EXHAUSTED,
          `Sent message larger than max (${frame.length} vs. ${limits.maxMessageBytes})`,
        );
        return;
      }
      if (!finish()) return;
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
      stream.once("wantTrailers", okTrailers);
      stream.end(frame);
    },
    fail,
  };
  const encoding = headers["grpc-encoding"];
  readUnaryMessage(
    stream,
    typeof encoding === "string" ? encoding : "identity",
    limits.maxMessageBytes,
    (read: Unary) => {
      if (finished) return;
      if (!read.ok) {
        fail(read.code, read.details);
        return;
      }
      let request;
      try {
        request = decodeRlsRequest(read.message);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        fail(GrpcStatus.INTERNAL, "Error deserializing request");
        return;
      }
      try {
        handler(headers, request, reply);
      } catch (error) {
        console.error("[sluice] ShouldRateLimit failed:", error);
        fail(GrpcStatus.UNKNOWN, "Unknown error");
      }
    },
  );
}
