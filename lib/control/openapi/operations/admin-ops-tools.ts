import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "@/lib/control/openapi/zod";
import { HistoryQuery } from "@/lib/control/data/config-history";
import { RollbackInput } from "@/lib/control/data/config-rollback";
import { LookupQuery } from "@/lib/control/ops/identifier-lookup";
import { SimulateQuery } from "@/lib/control/counters/simulate-check";
import { DecisionLogQuery } from "@/lib/control/ops/decision-log-query";
import { CheckHealthQuery } from "@/lib/control/ops/check-health";
import {
  CheckHealthSchema,
  DecisionLogSchema,
  HistoryPageSchema,
  LookupSchema,
  RollbackResultSchema,
  SimulationSchema,
} from "@/lib/control/openapi/schemas/ops-tools";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { ADMIN_HEADERS, ADMIN_SECURITY } from "@/lib/control/openapi/operations/admin-common";

// The ops tools: the request simulator, identifier lookup, configuration history and rollback.

const ok = (
  description: string,
  schema:
    | typeof SimulationSchema
    | typeof LookupSchema
    | typeof HistoryPageSchema
    | typeof RollbackResultSchema
    | typeof DecisionLogSchema
    | typeof CheckHealthSchema,
) => ({
  description,
  headers: ADMIN_HEADERS,
  content: { "application/json": { schema } },
});

export function registerOpsToolOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/admin/simulate",
    operationId: "simulateCheck",
    tags: ["Counters and usage"],
    summary: "Every limit one check would meet, where its values come from, and the verdict",
    description: "Runs the check with dryRun: nothing is consumed. `cost` defaults to 1.",
    security: ADMIN_SECURITY,
    request: { query: SimulateQuery },
    responses: { 200: ok("The simulated check.", SimulationSchema), ...errors(400, 401, 404, 503) },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/lookup",
    operationId: "lookupIdentifier",
    tags: ["Counters and usage"],
    summary: "Live counters and recent decisions of a key, subject or route",
    description:
      "Recent decisions come from a bounded per-tenant sample (the latest 500 decisions and 500 denials); at most 50 matching of each are returned.",
    security: ADMIN_SECURITY,
    request: { query: LookupQuery },
    responses: {
      200: ok("The identifier's counters and decisions.", LookupSchema),
      ...errors(400, 401, 404, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/decisions",
    operationId: "decisionLog",
    tags: ["Counters and usage"],
    summary: "A tenant's recent decisions, denials and degraded answers, filtered; JSON or CSV",
    description:
      "From the bounded per-tenant sample (the last 500 decisions and the last 500 denials and degraded answers, at most 50 of each per front and second), newest first. `limit` defaults to 100 (JSON) or 1000 (CSV), at most 1000. `format=csv` streams a CSV file.",
    security: ADMIN_SECURITY,
    request: { query: DecisionLogQuery },
    responses: {
      200: {
        description: "The matching entries.",
        headers: ADMIN_HEADERS,
        content: {
          "application/json": { schema: DecisionLogSchema },
          "text/csv": { schema: z.string() },
        },
      },
      ...errors(400, 401, 404, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/check-health",
    operationId: "checkHealth",
    tags: ["Counters and usage"],
    summary: "The check endpoint's health per minute, summed over the fronts (operators)",
    description:
      "Each front publishes its figures every 10 s; `minutes` (1..120, default 60) is the span, newest first. Latency quantiles in ms are interpolated within sluice_check_duration_seconds' buckets.",
    security: ADMIN_SECURITY,
    request: { query: CheckHealthQuery },
    responses: { 200: ok("Per minute and for the span.", CheckHealthSchema), ...errors(400, 401, 403, 503) },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/history",
    operationId: "configHistory",
    tags: ["Configuration"],
    summary: "Configuration versions, newest first, with who, when and what changed",
    description: "`limit` is the page size (1..100, default 20); `before` the previous page's `nextBefore`.",
    security: ADMIN_SECURITY,
    request: { query: HistoryQuery },
    responses: { 200: ok("A page of versions.", HistoryPageSchema), ...errors(400, 401, 404) },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/rollback",
    operationId: "rollbackConfig",
    tags: ["Configuration"],
    summary: "Restore an earlier version's configuration as a new, audited version",
    description:
      "With `tenant`, that tenant's part only (editors and up); without, the whole configuration (operators). Validated like an import.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: RollbackInput } } } },
    responses: {
      200: ok("What changed.", RollbackResultSchema),
      ...errors(400, 401, 403, 404, 413, 415, 422),
    },
  });
}
