import "server-only";
import { createHash } from "node:crypto";
import type { ChangeScope } from "@/lib/control/config/import/change-scope";
import type { Tx } from "@/lib/control/data/tx";

// The transaction-scoped advisory locks that serialize changes per tenant (the scope a
// change covers: lib/control/config/import/change-scope.ts). A change of tenants takes the global lock shared and each
// tenant's lock exclusively, so tenant A's import never waits on tenant B's; plans,
// global routes, pruning and anything unscoped take the global lock exclusively. Every
// transaction takes them in one order (global, then tenants by key, then the version lock
// at its end: config-change.ts), so two changes can never wait on each other in a cycle.

/** Any constants, distinct from the rollup's lock; the tenant locks use the two-key space. */
const GLOBAL_LOCK = 730_113;
const TENANT_LOCK_CLASS = 730_115;

/** A tenant slug's lock key: 32 bits of its SHA-256 (a collision only serializes two tenants). */
function tenantKey(slug: string): number {
  return createHash("sha256").update(slug).digest().readInt32BE(0);
}

export async function lockScope(tx: Tx, scope: ChangeScope): Promise<void> {
  if (scope === "global") {
    await tx.$executeRaw`select pg_advisory_xact_lock(${GLOBAL_LOCK}::bigint)`;
    return;
  }
  await tx.$executeRaw`select pg_advisory_xact_lock_shared(${GLOBAL_LOCK}::bigint)`;
  const keys = [...new Set(scope.tenants.map(tenantKey))].sort((a, b) => a - b);
  // one statement however many tenants (an import may list thousands), taken in array order
  await tx.$executeRaw`select pg_advisory_xact_lock(${TENANT_LOCK_CLASS}::int, k)
    from unnest(${keys}::int[]) with ordinality as u(k, n) order by n`;
}
