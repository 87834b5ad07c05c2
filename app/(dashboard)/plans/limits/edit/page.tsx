import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requireUser } from "@/lib/control/auth/session";
import { exportDocument } from "@/lib/control/data/queries/config-yaml";
import { describeTarget, type LimitTarget } from "@/lib/control/data/edits/limit-target";
import { LimitEditor } from "@/components/limits/limit-editor";
import { replayLimitAction } from "@/app/(dashboard)/_actions/replay-actions";
import { saveLimitAction } from "@/app/(dashboard)/_actions/limit-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Edit plan limit" };

const Search = z.object({
  at: z.enum(["plan", "route"]),
  plan: z.string().max(63).optional(),
  route: z.string().max(300).optional(),
  name: z.string().max(63).optional(),
});

// Plan and global route limits are bases: every field is required (fullLimitSchema).
export default async function EditPlanLimitPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const search = Search.safeParse(await searchParams);
  if (!search.success) notFound();
  const user = await requireUser();
  const doc = await orNotFound(exportDocument(user, null));
  const { at, plan, route, name } = search.data;
  const owner =
    at === "plan" ? doc.plans?.find((p) => p.name === plan) : doc.routes?.find((r) => r.pattern === route);
  if (!owner) notFound();
  const target: LimitTarget =
    at === "plan" ? { kind: "plan", plan: plan ?? "" } : { kind: "global-route", pattern: route ?? "" };
  const existing = name ? owner.limits.find((l) => l.name === name) : undefined;
  if (name && !existing) notFound();
  return (
    <section>
      <h1>{existing ? `Edit ${existing.name}` : "New limit"}</h1>
      <div className="panel">
        <p className="muted">
          On {describeTarget(target)}: applies to every tenant it reaches, within a second of saving.
        </p>
        <LimitEditor
          target={target}
          originalName={existing?.name ?? null}
          initial={existing ?? null}
          inherited={null}
          backHref="/plans"
          save={saveLimitAction}
          replay={replayLimitAction}
        />
      </div>
    </section>
  );
}
