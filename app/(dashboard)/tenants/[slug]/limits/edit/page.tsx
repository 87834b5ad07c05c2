import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requireUser } from "@/lib/control/auth/session";
import type { LimitDoc, LimitFields } from "@/lib/control/config/document";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { limitHierarchy } from "@/lib/control/data/queries/limit-hierarchy";
import { describeTarget, type LimitTarget } from "@/lib/control/data/edits/limit-target";
import { LimitEditor } from "@/components/limits/limit-editor";
import { replayLimitAction } from "@/app/(dashboard)/_actions/replay-actions";
import { saveLimitAction } from "@/app/(dashboard)/_actions/limit-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Edit limit" };

const Search = z.object({
  at: z.enum(["tenant", "key", "route"]).default("tenant"),
  key: z.string().max(63).optional(),
  route: z.string().max(300).optional(),
  name: z.string().max(63).optional(),
  override: z.literal("1").optional(),
});

export default async function EditLimitPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { slug } = await params;
  const search = Search.safeParse(await searchParams);
  if (!search.success) notFound();
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  // Viewers never get the editor; the save action refuses them as well.
  if (!tenant.can.edit) notFound();
  const { at, key, route, name, override } = search.data;
  let target: LimitTarget;
  let list: LimitDoc[];
  if (at === "key") {
    if (!key || !tenant.keyNames.includes(key)) notFound();
    target = { kind: "key", tenant: slug, key };
    list = tenant.doc.keys.find((k) => k.name === key)?.limits ?? [];
  } else if (at === "route") {
    const declared = tenant.doc.routes.find((r) => r.pattern === route);
    if (!declared || !route) notFound();
    target = { kind: "tenant-route", tenant: slug, pattern: route };
    list = declared.limits;
  } else {
    target = { kind: "tenant", tenant: slug };
    list = tenant.doc.limits;
  }
  const existing = name && !override ? list.find((l) => l.name === name) : undefined;
  if (name && !override && !existing) notFound();
  // What this level inherits for the name: the effective row one level up.
  const hierarchy = limitHierarchy(tenant);
  const upper =
    at === "key"
      ? hierarchy.tenant
      : hierarchy.tenant.map((r) => ({
          ...r,
          steps: r.steps.filter((s) => s.level === "plan" || s.scope.kind === "global-route"),
        }));
  const lookup = override ? name : existing?.name;
  const parent = lookup ? upper.find((r) => r.name === lookup && r.steps.length > 0) : undefined;
  let inherited: LimitFields | null = null;
  if (parent && (override || (existing && parent.state !== "own"))) inherited = parent.effective;
  return (
    <div className="panel">
      <h2>{existing ? `Edit ${existing.name}` : override ? `Override ${name}` : "New limit"}</h2>
      <p className="muted">
        Declared on {describeTarget(target)}. Saving applies it to checks within a second.
      </p>
      <LimitEditor
        target={target}
        originalName={existing?.name ?? null}
        initial={existing ?? (override && name ? { name } : null)}
        inherited={inherited}
        backHref={`/tenants/${slug}`}
        save={saveLimitAction}
        replay={replayLimitAction}
        routes={[...new Set([...tenant.doc.routes, ...tenant.scope.routes].map((r) => r.pattern))].sort()}
      />
    </div>
  );
}
