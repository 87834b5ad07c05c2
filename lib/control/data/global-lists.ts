import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/control/data/tx";
import type { PublishedLists } from "@/lib/check/lists/list-types";
import type { SubnetPrefixes } from "@/lib/check/lists/subnet-subject";

// The stored allow and deny lists: the operator's global ones (one row of GlobalLists) and a
// tenant's (its JSON columns). What is stored was validated by the import that wrote it, so
// reading checks the outline only: re-reading 100,000 entries per change would cost more
// than the change.

const GLOBAL_ID = "global";

/** Stored JSON as lists, or undefined when it is not their outline (or holds nothing). */
export function storedLists(value: unknown): PublishedLists | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { deny, allow } = value as { deny?: unknown; allow?: unknown };
  if (!Array.isArray(deny) || !Array.isArray(allow)) return undefined;
  if (deny.length === 0 && allow.length === 0) return undefined;
  return { deny, allow } as PublishedLists;
}

/** Stored JSON as subnet prefixes, or undefined. */
export function storedPrefixes(value: unknown): SubnetPrefixes | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { ipv4, ipv6 } = value as { ipv4?: unknown; ipv6?: unknown };
  if (typeof ipv4 !== "number" || typeof ipv6 !== "number") return undefined;
  return { ipv4, ipv6 };
}

/** The JSON text a tenant's column gets (null: none), as the import's unnest writes it. */
export const listsColumn = (lists: PublishedLists | undefined): string | null =>
  lists === undefined || (lists.deny.length === 0 && lists.allow.length === 0) ? null : JSON.stringify(lists);

export async function readGlobalLists(tx: Tx): Promise<PublishedLists | undefined> {
  const row = await tx.globalLists.findUnique({ where: { id: GLOBAL_ID } });
  return row === null ? undefined : storedLists(row.lists);
}

/** Writes the global lists; empty lists remove the row. */
export async function writeGlobalLists(tx: Tx, lists: PublishedLists): Promise<void> {
  if (lists.deny.length === 0 && lists.allow.length === 0) {
    await tx.globalLists.deleteMany({ where: { id: GLOBAL_ID } });
    return;
  }
  const value = lists as unknown as Prisma.InputJsonValue;
  await tx.globalLists.upsert({
    where: { id: GLOBAL_ID },
    create: { id: GLOBAL_ID, lists: value },
    update: { lists: value },
  });
}
