import "server-only";
import { isOperator, roleIn, type Principal, type Role } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import type { ConfigDocument, TenantDoc } from "@/lib/control/config/document";
import { readDocument } from "@/lib/control/data/read-document";
import { NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { DEFAULT_HEADER_FLAVOUR, type HeaderFlavour } from "@/lib/shared/config-terms";

export interface Capabilities {
  /** change the tenant's own limits, keys and routes */
  edit: boolean;
  /** manage tokens and members */
  admin: boolean;
  /** rename the tenant */
  own: boolean;
  /** plans, status, overriding imposed limits */
  operate: boolean;
}

export function capabilitiesOf(role: Role | "operator"): Capabilities {
  const rank = { viewer: 1, editor: 2, admin: 3, owner: 4, operator: 5 }[role];
  return { edit: rank >= 2, admin: rank >= 3, own: rank >= 4, operate: rank >= 5 };
}

export interface TenantDetail {
  id: string;
  slug: string;
  name: string;
  plan: string;
  status: "active" | "suspended";
  /** the RateLimit header flavour of its check answers */
  headers: HeaderFlavour;
  role: Role | "operator";
  can: Capabilities;
  /** the tenant as a document, plus the plans and global routes it is read against */
  doc: TenantDoc;
  scope: Required<Pick<ConfigDocument, "plans" | "routes">>;
  /** every key name, with or without limits of its own */
  keyNames: string[];
}

/** One tenant with what it inherits; NotFoundError when it does not exist or is not the principal's. */
export async function tenantDetail(principal: Principal, slug: string): Promise<TenantDetail> {
  return db().$transaction(async (tx) => {
    const ref = await tenantFor(tx, principal, slug, "viewer");
    const role = roleIn(principal, ref.id);
    if (!role) throw new NotFoundError(`No tenant named ${slug}.`);
    const whole = await readDocument(tx, [ref.id]);
    const doc = whole.tenants?.[0];
    if (!doc) throw new NotFoundError(`No tenant named ${slug}.`);
    // Only the tenant's own plan is shown to members: other plans are not theirs to read.
    const plans = (whole.plans ?? []).filter((p) => isOperator(principal) || p.name === doc.plan);
    const keys = await tx.apiKey.findMany({
      where: { tenantId: ref.id },
      select: { name: true },
      orderBy: { name: "asc" },
    });
    return {
      id: ref.id,
      slug: doc.slug,
      name: doc.name ?? doc.slug,
      plan: doc.plan,
      status: doc.status,
      headers: doc.headers ?? DEFAULT_HEADER_FLAVOUR,
      role,
      can: capabilitiesOf(role),
      doc,
      scope: { plans, routes: whole.routes ?? [] },
      keyNames: keys.map((k) => k.name),
    };
  });
}
