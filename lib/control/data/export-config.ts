import "server-only";
import { isOperator, roleIn, type Principal } from "@/lib/shared/principal";
import type { ConfigDocument } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { readDocument } from "@/lib/control/data/read-document";
import type { Tx } from "@/lib/control/data/tx";

// Export (docs/configuration.md): the whole current state for operators. A tenant-scoped principal gets
// only the tenants it may see and no plans or global routes: exactly the document it may
// import back (a tenant-scoped import may hold only its own tenant), so its round trip
// changes nothing too. Live keys without limits are listed bare (`{ name, limits: [] }`),
// so importing an export on a fresh installation makes them again, with new secrets; a
// secret is never in a document.

export async function exportConfig(principal: Principal): Promise<ConfigDocument> {
  return db().$transaction(async (tx) => {
    if (isOperator(principal)) return withBareKeys(tx, await readDocument(tx));
    const tenants = await tx.tenant.findMany({ select: { id: true } });
    const visible = tenants.filter((t) => roleIn(principal, t.id) !== null).map((t) => t.id);
    const document = await withBareKeys(tx, await readDocument(tx, visible));
    // its tenants' overrides too, so export then import changes nothing
    return {
      tenants: document.tenants ?? [],
      ...(document.overrides ? { overrides: document.overrides } : {}),
    };
  });
}

/** The document's tenants with their live keys that carry no limits (the compiler never sees these). */
async function withBareKeys(tx: Tx, document: ConfigDocument): Promise<ConfigDocument> {
  const slugs = (document.tenants ?? []).map((t) => t.slug);
  if (slugs.length === 0) return document;
  const bare = await tx.apiKey.findMany({
    where: { revokedAt: null, limits: { none: {} }, tenant: { slug: { in: slugs } } },
    select: { name: true, tenant: { select: { slug: true } } },
  });
  const bySlug = new Map<string, string[]>();
  for (const key of bare) bySlug.set(key.tenant.slug, [...(bySlug.get(key.tenant.slug) ?? []), key.name]);
  return {
    ...document,
    tenants: (document.tenants ?? []).map((tenant) => {
      const names = bySlug.get(tenant.slug);
      if (!names) return tenant;
      const keys = [...tenant.keys, ...names.map((name) => ({ name, limits: [] }))];
      return { ...tenant, keys: keys.sort((a, b) => a.name.localeCompare(b.name)) };
    }),
  };
}
