import "server-only";
import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";

// In the app process: requests the front answers (checks, metrics) that arrive on a
// connection the app holds (its first request was for the dashboard, or framed in a way
// the front leaves to node:http) are passed to the front over its private socket, so the
// check counters, caches and usage stay in one process.

const FRONT_PATHS = new Set(["/api/check", "/api/check/batch", "/api/metrics"]);

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

export function frontOwns(url: string | undefined): boolean {
  const path = url ?? "";
  const q = path.indexOf("?");
  return FRONT_PATHS.has(q < 0 ? path : path.slice(0, q));
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

const BAD_GATEWAY = '{"error":{"code":"internal_error","message":"The check front did not answer."}}';

export function forwarder(socketPath: string): (request: IncomingMessage, response: ServerResponse) => void {
  const agent = new Agent({ keepAlive: true });
  return (request, response) => {
    const upstream = httpRequest(
      { socketPath, agent, method: request.method, path: request.url, headers: endToEnd(request.headers) },
      (reply: IncomingMessage) => {
        response.writeHead(reply.statusCode ?? 502, endToEnd(reply.headers));
        reply.pipe(response);
      },
    );
    upstream.on("error", () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { "content-type": "application/json" }).end(BAD_GATEWAY);
    });
    request.pipe(upstream);
  };
}
