import "server-only";
import type { CheckShape } from "@/lib/check/shape-types";
import type { KeyRecord } from "@/lib/check/config-index";
import type { DenyCache } from "@/lib/check/deny-cache";
import type { PenaltyBlocks } from "@/lib/check/penalty-blocks";
import type { LimiterStore, StoreResult } from "@/lib/check/limiter-store";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import type { CheckInput } from "@/lib/check/types";
import { recordedAnswer, renderedReply, usageRoute, type CheckAnswer } from "@/lib/check/check-answer";
import { checkKeys, denySignature } from "@/lib/check/check-parts";
import { withCheckId } from "@/lib/check/adjust/check-id";
import { newLeaseId } from "@/lib/check/limiter/lease-id";
import { withLease } from "@/lib/check/lease/leased-answer";

// The one limiter call of a check that no memory could answer (check-service.ts), and what
// its reply teaches the server: a denial for the deny cache, a penalty block, and the
// answer's lease or check id when the check takes or asks for one.

export interface Memory {
  blocks: PenaltyBlocks;
  denied: DenyCache;
}

export interface Counted {
  shape: CheckShape;
  key: KeyRecord | null;
  keyJson: string;
  /** the shape's Redis keys already built for this key (a kept hot check), or null */
  base: string[] | null;
  /** the deny cache's signature when it was built before the call (null: build on denial) */
  signature: string | null;
}

export function askLimiter(
  store: LimiterStore,
  memory: Memory,
  counted: Counted,
  input: CheckInput,
  version: number,
  done: (answer: CheckAnswer) => void,
  timeoutMs: number | undefined,
): void {
  const { shape, key, keyJson, signature } = counted;
  const { tenant, route } = shape.resolved;
  const keyId = key?.id ?? null;
  const sentAt = performance.now();
  // concurrency limits: the lease this check takes when admitted (not on a dry run)
  const lease = shape.resolved.matched.hasLease && !input.dryRun ? newLeaseId() : undefined;
  const request =
    lease === undefined
      ? { cost: input.cost, dryRun: input.dryRun }
      : { cost: input.cost, dryRun: input.dryRun, lease };
  const prepared: PreparedCheck = {
    // the shape's specs: the store reads their tenant only, the keys carry the owners
    check: { limits: shape.specs, request },
    keys: checkKeys(shape, key, input.subject, counted.base),
    rules: shape.rules,
  };
  store.check(
    prepared,
    (result: StoreResult) => {
      let rendered = renderedReply(result, shape, key, keyJson, version);
      // POST /api/check/adjust: only checks that ask carry an id (lib/check/adjust)
      if (input.adjustable === true && result.ok && rendered.allowed && !input.dryRun)
        rendered = withCheckId(rendered, tenant.id, prepared, result.reply, result.at);
      let leaseDueMs: number | undefined;
      if (lease !== undefined && result.ok) {
        const owner = { keyId, route: usageRoute(route, input) };
        const reply = { values: result.reply, at: result.at };
        ({ rendered, dueMs: leaseDueMs } = withLease(rendered, shape, prepared.keys, lease, reply, owner));
      }
      if (result.ok && !rendered.allowed && shape.penalties !== null && !input.dryRun)
        memory.blocks.learn(shape.penalties, keyId, input.subject, result.reply, result.at, sentAt);
      if (result.ok && !rendered.allowed) {
        const denied = signature ?? denySignature(shape, key, input.subject);
        if (denied !== null) {
          const denial = { template: shape.template, keyJson, reply: result.reply, at: result.at, rendered };
          memory.denied.remember(denied, input.cost, denial, sentAt);
        }
      }
      done(recordedAnswer(rendered, tenant.id, keyId, route, input, leaseDueMs));
    },
    timeoutMs,
  );
}
