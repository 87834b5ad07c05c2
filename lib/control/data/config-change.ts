import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { writeAudits, type Audit, type AuditInput } from "@/lib/control/data/audit";
import { compileChange } from "@/lib/control/data/compile-published";
import { writeParts } from "@/lib/control/data/config-parts/part-store";
import type { Tx } from "@/lib/control/data/tx";
import { lockScope } from "@/lib/control/data/change-locks";
import type { ChangeScope } from "@/lib/control/config/import/change-scope";
import { publishParts } from "@/lib/control/config/publish";
import { publishWholeAt, republishIfBehind } from "@/lib/control/data/reconcile";

// Every configuration change goes through here: one transaction writes the change, its
// audit entries and the next config version with its compiled snapshot. A change that
// audits nothing changed nothing and makes no version.
//
// Locks (change-locks.ts): the change's scope first (one tenant's lock, or the global one),
// held for the whole change, so imports of different tenants run side by side. Only the
// short last step, numbering the version and compiling the snapshot, takes the version
// lock: the next number is then max + 1 with no other change between. A version stores and
// publishes only the parts that differ from the newest stored (compile-published.ts): the
// named tenants' parts for a tenant change, every part compared for a global one. Parts are
// compared under the version lock, so each version's parts are exact against the one before.

export type { ChangeScope } from "@/lib/control/config/import/change-scope";

export interface ChangeOutcome<T> {
  result: T;
  /** the new version, or null when nothing changed */
  configVersion: number | null;
}

const VERSION_LOCK = 730_114;
/** Past this many changed parts a version is published whole (publishWholeAt). */
const MOST_PARTS_IN_ONE_PUBLISH = 2_000;

export async function runConfigChange<T>(
  principal: Principal,
  requestId: string | null,
  work: (tx: Tx, audit: Audit) => Promise<T>,
  scope: ChangeScope = "global",
): Promise<ChangeOutcome<T>> {
  const outcome = await db().$transaction(
    async (tx) => {
      await lockScope(tx, scope);
      // entries wait for the version number, which is known only at the end
      const entries: AuditInput[] = [];
      const audit: Audit = async (entry) => {
        entries.push(entry);
      };
      const result = await work(tx, audit);
      if (entries.length === 0) return { result, version: null, parts: [] };
      await tx.$executeRaw`select pg_advisory_xact_lock(${VERSION_LOCK}::bigint)`;
      const latest = await tx.configVersion.aggregate({ _max: { version: true } });
      const version = (latest._max.version ?? 0) + 1;
      // one statement per 5,000 entries: a bulk change audits thousands of objects
      await writeAudits(tx, { principal, requestId, configVersion: version }, entries);
      const parts = await compileChange(tx, version, scope === "global" ? null : scope.tenants);
      await tx.configVersion.create({ data: { version, partial: true } });
      await writeParts(tx, version, parts);
      return { result, version, parts };
    },
    // a whole installation's import (10,000 tenants) may need more than a tenant's change
    { timeout: scope === "global" || scope.tenants.length > 100 ? 120_000 : 30_000, maxWait: 10_000 },
  );
  if (outcome.version !== null) {
    // Best effort: when Redis is down, or missed this version, the healer republishes it
    // from PostgreSQL (lib/config/reconcile.ts).
    // A change of most of a large installation goes whole, staged in chunks: one script
    // carrying every part would hold Redis, and so every check, for its whole length.
    const { version, parts } = outcome;
    const publish =
      parts.length > MOST_PARTS_IN_ONE_PUBLISH
        ? publishWholeAt(version)
        : publishParts(
            version,
            parts.map((part) => ({ scope: part.scope, json: part.compiled })),
          ).then((published) => (published === "needs-whole" ? republishIfBehind() : 0));
    await publish.catch(() => 0);
  }
  return { result: outcome.result, configVersion: outcome.version };
}

/** A change of the named tenants only (by slug): it waits on no other tenant's change. */
export function runTenantChange<T>(
  tenants: string | readonly string[],
  principal: Principal,
  requestId: string | null,
  work: (tx: Tx, audit: Audit) => Promise<T>,
): Promise<ChangeOutcome<T>> {
  return runConfigChange(principal, requestId, work, {
    tenants: typeof tenants === "string" ? [tenants] : tenants,
  });
}
