import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Enforcement } from "@/lib/enforce/runtime";
import { fail, handleBatch, handleCheck } from "@/lib/enforce/http/check-handlers";
import { sendError } from "@/lib/enforce/http/respond";
import { registry } from "@/lib/metrics/check-metrics";

// The lean path of server.ts: /api/check, /api/check/batch and /api/metrics answered on
// node:http directly; everything else goes to Next. Returns false for paths it does not own.

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

function methodNotAllowed(response: ServerResponse, allow: string): void {
  sendError(response, 405, "method_not_allowed", `Use ${allow} here.`, undefined, { allow });
}

export function leanRoute(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const path = pathOf(request.url ?? "");
  switch (path) {
    case "/api/check":
    case "/api/check/batch": {
      if (request.method !== "POST") {
        methodNotAllowed(response, "POST");
        return true;
      }
      const handler = path === "/api/check" ? handleCheck : handleBatch;
      try {
        handler(enforcement, request, response);
      } catch (error) {
        fail(response, error);
      }
      return true;
    }
    case "/api/metrics": {
      if (request.method !== "GET" && request.method !== "HEAD") {
        methodNotAllowed(response, "GET");
        return true;
      }
      const text = registry.render();
      response.writeHead(200, {
        "content-type": "text/plain; version=0.0.4; charset=utf-8",
        "content-length": Buffer.byteLength(text),
        "cache-control": "no-store",
      });
      response.end(request.method === "HEAD" ? undefined : text);
      return true;
    }
    default:
      return false;
  }
}
