// @sluice/client: a typed client for Sluice's /api/check, and middleware for Express,
// Fastify, Next.js and fetch-style handlers. Zero runtime dependencies (Node >= 20).

export { createClient, type CallOptions, type ClientOptions, type SluiceClient } from "./client";
export {
  HEADER_FLAVOURS,
  rateLimitHeaders,
  setRateLimitHeaders,
  type HeaderFlavour,
  type HeaderTarget,
} from "./headers";
export type { DenyCacheOptions } from "./deny-cache";
export type { MicroBatchOptions } from "./micro-batch";
export type { OnUnavailable } from "./fallback";
export type {
  AdjustOptions,
  AdjustResult,
  Adjustment,
  CheckRequest,
  CheckResult,
  ClientError,
  ClientErrorKind,
  Decision,
  DecisionReason,
  DegradedCause,
  LimitReport,
} from "./types";
export { sluiceExpress, expressRoute, type ExpressMiddleware } from "./middleware/express";
export { sluiceFastify, fastifyRoute, type FastifyHook } from "./middleware/fastify";
export {
  withSluiceFetch,
  requestAddress,
  type FetchGuardOptions,
  type FetchHandler,
} from "./middleware/fetch";
export { withSluice, sluiceProxy } from "./middleware/next";
export type { GuardOptions } from "./middleware/core";
export type { DenyAnswer, DenyOptions, QueueOptions } from "./middleware/deny";
