import "server-only";
import type { ConfigDocument } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { readDocument } from "@/lib/control/data/read-document";

// Today's plans, global routes and the named tenants, for the replay of a dry-run import
// (lib/replay/document-replays.ts). The caller's rights were checked by the dry run itself,
// and every replay checks the tenant again (lib/replay/run-replay.ts).
export async function documentForReplay(slugs: readonly string[]): Promise<ConfigDocument> {
  const rows = await db().tenant.findMany({ where: { slug: { in: [...slugs] } }, select: { id: true } });
  return readDocument(
    db(),
    rows.map((r) => r.id),
  );
}
