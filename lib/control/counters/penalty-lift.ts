import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { announceBlockLifted } from "@/lib/check/counter-signals";
import { blockEntryOf } from "@/lib/check/limiter/penalty-args";
import { env } from "@/lib/shared/env";
import { redis } from "@/lib/shared/redis/redis";
import { auditedTenantChange } from "@/lib/control/data/audited-tenant-change";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { imposedBy } from "@/lib/control/config/compile/imposed-limits";
import { counterTarget } from "@/lib/control/counters/counter-specs";
import { limitsAtCheck, resolveCheck } from "@/lib/control/counters/resolve-check";
import { ResetInput } from "@/lib/control/counters/counter-reset";
import {
  counterClient,
  countOrDropEntries,
  findMatching,
  withStore,
  type EntryKeys,
} from "@/lib/control/data/counters-store";

// POST /api/admin/penalty/lift: ends a penalty's block (docs/algorithms.md, Penalties) for
// one owner when the request names it (key, subject), or for every owner of the limit:
// the block entries are removed from the owner keys, then every server is told to forget
// the blocks it holds in memory (counter-signals.ts). Audited like a counter reset, with
// the same rights: a plan's or global route's penalty needs an operator.

export const LiftInput = ResetInput;
export type LiftInput = ResetInput;

export interface LiftResult {
  tenant: string;
  limit: string;
  /** blocks removed (0 when none was recorded) */
  lifted: number;
}

export async function liftPenalty(
  principal: Principal,
  input: LiftInput,
  requestId: string | null,
): Promise<LiftResult> {
  return auditedTenantChange(
    principal,
    input.tenant,
    "editor",
    requestId,
    async (change) => {
      const check = await resolveCheck(input.tenant, input.key ?? null, input.route ?? null);
      const limits = limitsAtCheck(check, input.limit, input.key ?? null, input.route !== undefined).filter(
        (l) => l.rule.penalty !== undefined,
      );
      if (limits.length === 0) {
        throw new NotFoundError(
          `No limit named ${input.limit} with a penalty applies to tenant ${input.tenant} there.`,
        );
      }
      const imposed = isOperator(principal) ? [] : limits.flatMap((l) => imposedBy(l) ?? []);
      if (imposed.length > 0) {
        throw new ForbiddenError(
          `Only an operator can lift the penalty of ${input.limit}: it is imposed by ${[...new Set(imposed)].join(", ")}.`,
        );
      }
      const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: input.subject ?? null };
      const entries = await withStore(async () => {
        const found: EntryKeys[] = [];
        for (const limit of limits) {
          const target = counterTarget(check.tenant.id, limit, owners);
          if (target.kind !== "entries") continue; // validation keeps penalties off such limits
          const entry = blockEntryOf(target.entry);
          if (target.key !== null) {
            found.push({ client: counterClient(), keys: [target.key], entries: [entry] });
            continue;
          }
          for (const [node, keys] of await findMatching(target.pattern))
            found.push({ client: node, keys, entries: [entry] });
        }
        return found;
      });
      const lifted = await withStore(() => countOrDropEntries(entries, true));
      await change.audit({
        action: "penalty.lift",
        targetType: "limit",
        targetId: input.limit,
        before: {
          blocks: lifted,
          key: input.key ?? null,
          route: check.route,
          subject: input.subject ?? null,
        },
        after: { blocks: 0 },
      });
      // every server forgets the blocks it holds; those still in force it learns again
      await announceBlockLifted(redis(), env().REDIS_PREFIX);
      return { tenant: input.tenant, limit: input.limit, lifted };
    },
    15_000,
  );
}
