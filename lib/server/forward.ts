import "server-only";
import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { MAX_BATCH_BYTES, MAX_CHECK_BYTES } from "@/lib/check/http/check-endpoint";
import { MAX_ADJUST_BYTES } from "@/lib/check/http/adjust-endpoint";

// In the app process: requests the front answers (checks, metrics) that arrive on a
// connection the app holds (its first request was for the dashboard, or framed in a way
// the front leaves to node:http) are passed to the front over its private socket, so the
// check counters, caches and usage stay in one process. The body is read here first, up to
// the endpoint's limit, and sent whole with its length: a body over the limit is sent as
// its declared length alone, which the front refuses (401 or 413) without reading, so it
// never closes on a request still being written (that raced into a 502).

const LIMITS = new Map([
  ["/api/check", MAX_CHECK_BYTES],
  ["/api/check/batch", MAX_BATCH_BYTES],
  ["/api/check/adjust", MAX_ADJUST_BYTES],
  ["/api/check/release", MAX_BATCH_BYTES],
  ["/api/metrics", MAX_CHECK_BYTES],
  ["/api/metrics/stalls", MAX_CHECK_BYTES],
]);

/** Hop-by-hop fields: each connection has its own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

function limitOf(url: string | undefined): number | undefined {
  const path = url ?? "";
  const q = path.indexOf("?");
  return LIMITS.get(q < 0 ? path : path.slice(0, q));
}

export function frontOwns(url: string | undefined): boolean {
  return limitOf(url) !== undefined;
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

const BAD_GATEWAY = '{"error":{"code":"internal_error","message":"The check front did not answer."}}';

export function forwarder(
  socketPaths: readonly string[],
): (request: IncomingMessage, response: ServerResponse) => void {
  const agent = new Agent({ keepAlive: true });
  let turn = 0;
  return (request, response) => {
    const socketPath = socketPaths[turn++ % socketPaths.length];
    const limit = limitOf(request.url) ?? MAX_CHECK_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const send = (): void => {
      const body = over ? null : Buffer.concat(chunks);
      // the length sent is the body's own (the client's may be chunked or absent)
      const headers = { ...endToEnd(request.headers), "content-length": String(body?.length ?? limit + 1) };
      const upstream = httpRequest(
        { socketPath, agent, method: request.method, path: request.url, headers },
        (reply: IncomingMessage) => {
          const replyHeaders = endToEnd(reply.headers);
          // the rest of an oversized body is never read: the connection closes after this
          if (over) replyHeaders.connection = "close";
          response.writeHead(reply.statusCode ?? 502, replyHeaders);
          reply.pipe(response);
        },
      );
      upstream.on("error", () => {
        if (response.headersSent) response.destroy();
        else response.writeHead(502, { "content-type": "application/json" }).end(BAD_GATEWAY);
      });
      upstream.end(body ?? undefined);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      over = true;
      request.removeListener("data", onData);
      send();
    };
    request.on("data", onData);
    request.once("end", () => {
      if (!over) send();
    });
  };
}
