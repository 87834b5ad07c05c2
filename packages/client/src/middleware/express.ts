import { chosenRoute, guard, releaseOnEnd, routeOf, sleep, type EndingLike, type GuardOptions } from "./core";
import { checkDenyOptions } from "./deny";
import { checkHeaderFlavour } from "../headers";
import { settleCost, wantsAdjust, type Finished } from "./after-response";

// Express (4 and 5). Used per route, `app.get("/users/:id", sluiceExpress(opts), handler)`,
// the route pattern is known (req.route.path under req.baseUrl). Used app-wide
// (`app.use(...)`), it runs before routing, so it sends the `route` option's answer, else
// the raw path ("GET /users/42"), which Sluice matches against its route patterns itself.
// Typed structurally so the package needs no dependency on Express. A lease the check
// answered is released when the response finishes or its connection closes (a handler that
// throws ends in Express's error handler, which finishes the response).

export interface ExpressRequestLike {
  method: string;
  baseUrl?: string;
  path: string;
  ip?: string;
  route?: { path?: unknown };
  /** the connection, destroyed by `onDenied: "drop"` */
  socket?: { destroy(): unknown };
  headers: Record<string, string | string[] | undefined>;
}

export interface ExpressResponseLike extends Partial<EndingLike> {
  setHeader(name: string, value: string): unknown;
  status(code: number): { json(body: unknown): unknown };
  /** read after the response (skipFailedRequests, costAfter) */
  statusCode?: number;
  getHeader?(name: string): unknown;
  once?(event: "finish" | "close", listener: () => void): unknown;
}

export type ExpressMiddleware = (
  req: ExpressRequestLike,
  res: ExpressResponseLike,
  next: (error?: unknown) => void,
) => Promise<void>;

function header(req: ExpressRequestLike, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Express's own pattern of the matched route, when the middleware runs inside one. */
export function expressRoute(req: ExpressRequestLike): string | undefined {
  const pattern = req.route?.path;
  const raw = routeOf(req.method, `${req.baseUrl ?? ""}${req.path}`);
  // a RegExp or array route has no "METHOD /path" form: the raw path, matched by Sluice
  return typeof pattern === "string" ? (routeOf(req.method, `${req.baseUrl ?? ""}${pattern}`) ?? raw) : raw;
}

/** Subject default: req.ip, which follows Express's "trust proxy" setting. */
export function sluiceExpress(
  options: GuardOptions<ExpressRequestLike, ExpressResponseLike>,
): ExpressMiddleware {
  const apiKeyHeader = options.apiKeyHeader ?? "x-api-key";
  checkDenyOptions(options);
  checkHeaderFlavour(options.headers);
  return async (req, res, next) => {
    try {
      const verdict = await guard(options, req, {
        method: req.method,
        route: chosenRoute(options, req, () => expressRoute(req)),
        apiKey: header(req, apiKeyHeader),
        subject: options.subject ? options.subject(req) : req.ip,
      });
      if (!verdict.serve && verdict.drop) {
        req.socket?.destroy();
        return;
      }
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
      if (!verdict.serve) {
        res.status(verdict.status).json(verdict.body);
        return;
      }
      // a lease (concurrency limits) ends with the response: finished, failed or abandoned
      releaseOnEnd(options.client, verdict.result, res.once ? (res as EndingLike) : undefined);
      await sleep(verdict.waitMs);
      if (wantsAdjust(options) && verdict.result.checkId !== undefined) {
        // "finish": the response was handed over whole (an error handler's 500 included);
        // "close" before it: the handler failed or the client went away
        let finished: Finished<ExpressResponseLike> | null = null;
        const settle = (): void => {
          void settleCost(
            options.client,
            options,
            req,
            verdict.result,
            verdict.cost,
            finished ?? { failed: true },
          );
        };
        res.once?.("finish", () => {
          finished = { failed: false, status: res.statusCode ?? 200, res };
        });
        res.once?.("close", settle);
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
