import "server-only";
import type { Tx } from "@/lib/control/data/tx";

// Names for audit targets recorded by internal id (keys, tokens, members, invitations), so
// the log reads "key backend" rather than "key cmwulv1vj...". One query per target type
// on a page; an object deleted since keeps its id.

interface Entry {
  id: bigint;
  targetType: string;
  targetId: string | null;
}

type Lookup = (tx: Tx, ids: string[]) => Promise<{ id: string; name: string }[]>;

const LOOKUPS: Record<string, Lookup> = {
  key: (tx, ids) => tx.apiKey.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
  "service-token": (tx, ids) =>
    tx.serviceToken.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
  "admin-token": (tx, ids) =>
    tx.adminToken.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
  member: async (tx, ids) =>
    (await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })).map((u) => ({
      id: u.id,
      name: u.email,
    })),
  invitation: async (tx, ids) =>
    (await tx.invitation.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })).map(
      (i) => ({
        id: i.id,
        name: i.email,
      }),
    ),
};
LOOKUPS.user = LOOKUPS.member as Lookup;

/** entry id -> "key backend", for the entries whose target has a name to look up. */
export async function targetNames(tx: Tx, entries: readonly Entry[]): Promise<Map<bigint, string>> {
  const byType = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.targetId && LOOKUPS[e.targetType])
      byType.set(e.targetType, (byType.get(e.targetType) ?? new Set()).add(e.targetId));
  }
  const names = new Map<string, string>();
  for (const [type, ids] of byType) {
    const lookup = LOOKUPS[type];
    if (!lookup) continue;
    for (const row of await lookup(tx, [...ids])) names.set(`${type}:${row.id}`, row.name);
  }
  const out = new Map<bigint, string>();
  for (const e of entries) {
    const name = e.targetId ? names.get(`${e.targetType}:${e.targetId}`) : undefined;
    if (name) out.set(e.id, `${e.targetType} ${name}`);
  }
  return out;
}
