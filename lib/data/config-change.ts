import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/data/db";
import { writeAudit, type AuditInput } from "@/lib/data/audit";
import { compilePublished } from "@/lib/data/compile-published";
import type { Tx } from "@/lib/data/tx";
import { lockScope, type ChangeScope } from "@/lib/data/change-locks";
import { publishConfig } from "@/lib/config/publish";

// Every configuration change goes through here: one transaction writes the change, its
// audit entries and the next config version with its compiled snapshot. A change that
// audits nothing changed nothing and makes no version.
//
// Locks (change-locks.ts): the change's scope first (one tenant's lock, or the global one),
// held for the whole change, so imports of different tenants run side by side. Only the
// short last step, numbering the version and compiling the snapshot, takes the version
// lock: the next number is then max + 1 with no other change between, and as PostgreSQL
// reads committed data per statement, the snapshot compiled under that lock holds every
// change committed before it (another tenant's too) plus this one. Versions so never
// repeat or go backwards and no published snapshot drops a concurrent change.

export type Audit = (entry: AuditInput) => Promise<void>;
export type { ChangeScope } from "@/lib/data/change-locks";

export interface ChangeOutcome<T> {
  result: T;
  /** the new version, or null when nothing changed */
  configVersion: number | null;
}

const VERSION_LOCK = 730_114;

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
      if (entries.length === 0) return { result, published: null };
      await tx.$executeRaw`select pg_advisory_xact_lock(${VERSION_LOCK}::bigint)`;
      const latest = await tx.configVersion.aggregate({ _max: { version: true } });
      const version = (latest._max.version ?? 0) + 1;
      for (const entry of entries)
        await writeAudit(tx, { principal, requestId, configVersion: version }, entry);
      const { published, document } = await compilePublished(tx, version);
      await tx.configVersion.create({
        data: {
          version,
          snapshot: published as unknown as Prisma.InputJsonValue,
          document: document as unknown as Prisma.InputJsonValue,
        },
      });
      return { result, published };
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  if (outcome.published) {
    // Best effort: when Redis is down, every server's reconciler republishes from PostgreSQL.
    await publishConfig(outcome.published).catch(() => false);
  }
  return { result: outcome.result, configVersion: outcome.published?.version ?? null };
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

/** The newest version recorded in PostgreSQL, with its snapshot (for republishing). */
export async function latestPublished(): Promise<{ version: number; snapshot: unknown } | null> {
  return db().configVersion.findFirst({
    orderBy: { version: "desc" },
    select: { version: true, snapshot: true },
  });
}
