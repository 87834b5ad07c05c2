import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { replayRequestSchema } from "@/lib/control/replay/types";
import { ReplayResultSchema } from "@/lib/control/openapi/schemas/replay";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { ADMIN_HEADERS, ADMIN_SECURITY } from "@/lib/control/openapi/operations/admin-common";

// The what-if replay of a proposed limit (docs/replay.md).

export function registerReplayOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/admin/replay",
    operationId: "replayLimit",
    tags: ["Counters and usage"],
    summary: "How many recorded checks a proposed limit would have rejected, against the current one",
    description:
      "Replays the tenant's recorded per-second counts (the last `minutes`, 1..60, default 60) through the reference model of the algorithm, once for `current` (null: no such limit today) and once for `proposed`. Bounded: at most 400,000 recorded fields read, 200 counter owners and 400,000 checks replayed per rule; `bounds.truncated` says when a cap applied. A subject limit reads the bounded per-subject series. Readers of the tenant's usage (viewer and up) may ask.",
    security: ADMIN_SECURITY,
    request: {
      body: { required: true, content: { "application/json": { schema: replayRequestSchema } } },
    },
    responses: {
      200: {
        description:
          "Allowed and would-reject per minute, totals and the most affected keys, subjects and routes.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: ReplayResultSchema } },
      },
      ...errors(400, 401, 404, 413, 415, 503),
    },
  });
}
