import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/data/db";
import { writeAudit, type AuditInput } from "@/lib/data/audit";
import { compilePublished } from "@/lib/data/compile-published";
import type { Tx } from "@/lib/data/tx";
import { publishConfig } from "@/lib/config/publish";

// Every configuration change goes through here: one transaction writes the change, its
// audit entries and the next config version with its compiled snapshot. A change that
// audits nothing changed nothing and makes no version.

export type Audit = (entry: AuditInput) => Promise<void>;

export interface ChangeOutcome<T> {
  result: T;
  /** the new version, or null when nothing changed */
  configVersion: number | null;
}

// Any constant: it serializes config changes so versions are gap-free and ordered.
const CONFIG_LOCK = 730_113;

export async function runConfigChange<T>(
  principal: Principal,
  requestId: string | null,
  work: (tx: Tx, audit: Audit) => Promise<T>,
): Promise<ChangeOutcome<T>> {
  const outcome = await db().$transaction(
    async (tx) => {
      await tx.$executeRaw`select pg_advisory_xact_lock(${CONFIG_LOCK})`;
      const latest = await tx.configVersion.aggregate({ _max: { version: true } });
      const version = (latest._max.version ?? 0) + 1;
      let audited = 0;
      const audit: Audit = async (entry) => {
        audited += 1;
        await writeAudit(tx, { principal, requestId, configVersion: version }, entry);
      };
      const result = await work(tx, audit);
      if (audited === 0) return { result, published: null };
      const published = await compilePublished(tx, version);
      await tx.configVersion.create({
        data: { version, snapshot: published as unknown as Prisma.InputJsonValue },
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

/** The newest version recorded in PostgreSQL, with its snapshot (for republishing). */
export async function latestPublished(): Promise<{ version: number; snapshot: unknown } | null> {
  return db().configVersion.findFirst({
    orderBy: { version: "desc" },
    select: { version: true, snapshot: true },
  });
}
