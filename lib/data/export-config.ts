import "server-only";
import { isOperator, roleIn, type Principal } from "@/lib/auth/principal";
import type { ConfigDocument } from "@/lib/config/document";
import { db } from "@/lib/data/db";
import { readDocument } from "@/lib/data/read-document";

// Export (docs/configuration.md): the whole current state for operators. A tenant-scoped principal gets
// only the tenants it may see and no plans or global routes: exactly the document it may
// import back (a tenant-scoped import may hold only its own tenant), so its round trip
// changes nothing too.

export async function exportConfig(principal: Principal): Promise<ConfigDocument> {
  return db().$transaction(async (tx) => {
    if (isOperator(principal)) return readDocument(tx);
    const tenants = await tx.tenant.findMany({ select: { id: true } });
    const visible = tenants.filter((t) => roleIn(principal, t.id) !== null).map((t) => t.id);
    const document = await readDocument(tx, visible);
    // its tenants' overrides too, so export then import changes nothing
    return {
      tenants: document.tenants ?? [],
      ...(document.overrides ? { overrides: document.overrides } : {}),
    };
  });
}
