import { chosenRoute, guard, releaseOnEnd, routeOf, sleep, type EndingLike, type GuardOptions } from "./core";
import { checkDenyOptions } from "./deny";
import { checkHeaderFlavour } from "../headers";
import { wantsAdjust } from "./after-response";

// Fastify (4 and 5): an onRequest hook, `app.addHook("onRequest", sluiceFastify(opts))`
// or per route (`{ onRequest: sluiceFastify(opts) }`). Routing happens before onRequest, so
// the pattern is known in both (request.routeOptions.url). Subject default: request.ip,
// which follows Fastify's trustProxy option. Typed structurally (no dependency on Fastify).

export interface FastifyRequestLike {
  method: string;
  url: string;
  ip?: string;
  routeOptions?: { url?: string | undefined };
  /** the Node request; its socket is destroyed by `onDenied: "drop"` */
  raw?: { socket?: { destroy(): unknown } | null };
  headers: Record<string, string | string[] | undefined>;
}

export interface FastifyReplyLike {
  header(name: string, value: string): unknown;
  code(status: number): { send(body: unknown): unknown };
  /** tells Fastify the reply is ours (a dropped connection gets no answer) */
  hijack?(): unknown;
  /** the Node response: a lease is released when it finishes or closes */
  raw?: EndingLike;
}

export type FastifyHook = (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>;

/** Fastify's pattern of the matched route; the raw path (no query) when none matched. */
export function fastifyRoute(request: FastifyRequestLike): string | undefined {
  const pattern = request.routeOptions?.url;
  return routeOf(request.method, pattern ?? request.url.split("?")[0] ?? "/");
}

export function sluiceFastify(options: GuardOptions<FastifyRequestLike>): FastifyHook {
  const apiKeyHeader = (options.apiKeyHeader ?? "x-api-key").toLowerCase();
  checkDenyOptions(options);
  checkHeaderFlavour(options.headers);
  // an onRequest hook does not see the reply's end; refusing beats checking adjustably for nothing
  if (wantsAdjust(options))
    throw new Error(
      "skipFailedRequests, costAfter: not supported by sluiceFastify (use client.adjust in onResponse)",
    );
  return async (request, reply) => {
    const raw = request.headers[apiKeyHeader];
    const verdict = await guard(options, request, {
      method: request.method,
      route: chosenRoute(options, request, () => fastifyRoute(request)),
      apiKey: Array.isArray(raw) ? raw[0] : raw,
      subject: options.subject ? options.subject(request) : request.ip,
    });
    if (!verdict.serve && verdict.drop) {
      reply.hijack?.();
      request.raw?.socket?.destroy();
      return reply;
    }
    for (const [name, value] of Object.entries(verdict.headers)) reply.header(name, value);
    if (!verdict.serve) {
      // An async hook answers early by sending and returning the reply (Fastify's rule).
      return reply.code(verdict.status).send(verdict.body);
    }
    // a lease (concurrency limits) ends with the response: finished, failed or abandoned
    releaseOnEnd(options.client, verdict.result, reply.raw);
    await sleep(verdict.waitMs);
    return undefined;
  };
}
