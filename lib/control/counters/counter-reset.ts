import "server-only";
import { z } from "zod";
import type { Redis } from "ioredis";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { announceCountersReset } from "@/lib/check/counter-signals";
import { env } from "@/lib/shared/env";
import { redis } from "@/lib/shared/redis/redis";
import { auditedTenantChange } from "@/lib/control/data/audited-tenant-change";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { imposedBy } from "@/lib/control/config/compile/imposed-limits";
import { counterTarget } from "@/lib/control/counters/counter-specs";
import { CounterQuery } from "@/lib/control/counters/counter-query";
import { limitsAtCheck, resolveCheck } from "@/lib/control/counters/resolve-check";
import {
  counterClient,
  countOrDropEntries,
  deleteFound,
  findMatching,
  withStore,
  type EntryKeys,
} from "@/lib/control/data/counters-store";

// POST /api/admin/reset: clears a limit's counters, for one owner when the request names it
// (key, subject) or for every owner of the limit otherwise: its entries in owner keys, or a
// sliding log's own keys (lib/limiter/keys.ts). Audited in a transaction whose commit waits
// on the Redis work, so a reset that failed leaves no audit entry behind. Tenant roles
// (editor and up) may reset only what their tenant owns (tenant, key and tenant-route
// limits); a plan's or global route's limit needs an operator.

export const ResetInput = CounterQuery.extend({
  limit: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
});
export type ResetInput = z.infer<typeof ResetInput>;

export interface ResetResult {
  tenant: string;
  limit: string;
  /** counter ids cleared (a name can stand for several: a key's own limit and the tenant's) */
  limitIds: string[];
  /** counters cleared (0 when they were already empty) */
  deleted: number;
}

export async function resetCounter(
  principal: Principal,
  input: ResetInput,
  requestId: string | null,
): Promise<ResetResult> {
  return auditedTenantChange(
    principal,
    input.tenant,
    "editor",
    requestId,
    async (change) => {
      const check = await resolveCheck(input.tenant, input.key ?? null, input.route ?? null);
      const limits = limitsAtCheck(check, input.limit, input.key ?? null, input.route !== undefined);
      if (limits.length === 0) {
        throw new NotFoundError(`No limit named ${input.limit} applies to tenant ${input.tenant} there.`);
      }
      // A tenant role resetting a plan's or global route's counter would raise its own quota.
      const imposed = isOperator(principal) ? [] : limits.flatMap((l) => imposedBy(l) ?? []);
      if (imposed.length > 0) {
        throw new ForbiddenError(
          `Only an operator can reset the counters of ${input.limit}: it is imposed by ${[...new Set(imposed)].join(", ")}.`,
        );
      }
      const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: input.subject ?? null };
      const targets = limits.map((limit) => counterTarget(check.tenant.id, limit, owners));
      const { logs, entries } = await withStore(async () => {
        const logKeys = new Map<Redis, string[]>();
        const entryKeys: EntryKeys[] = [];
        for (const target of targets) {
          if (target.kind === "entries" && target.key !== null) {
            entryKeys.push({ client: counterClient(), keys: [target.key], entries: [target.entry] });
            continue;
          }
          for (const [node, keys] of await findMatching(target.pattern)) {
            if (target.kind === "keys") logKeys.set(node, [...(logKeys.get(node) ?? []), ...keys]);
            else entryKeys.push({ client: node, keys, entries: [target.entry] });
          }
        }
        return { logs: logKeys, entries: entryKeys };
      });
      const logCount = [...logs.values()].reduce((sum, keys) => sum + keys.length, 0);
      const count = logCount + (await withStore(() => countOrDropEntries(entries, false)));
      await change.audit({
        action: "counter.reset",
        targetType: "limit",
        targetId: input.limit,
        before: {
          counters: count,
          key: input.key ?? null,
          route: check.route,
          subject: input.subject ?? null,
        },
        after: { counters: 0 },
      });
      const deleted = await withStore(
        async () => (await deleteFound(logs)) + (await countOrDropEntries(entries, true)),
      );
      // Every server's deny cache must forget denials based on counters now gone.
      await announceCountersReset(redis(), env().REDIS_PREFIX);
      return { tenant: input.tenant, limit: input.limit, limitIds: limits.map((l) => l.id), deleted };
    },
    15_000,
  );
}
