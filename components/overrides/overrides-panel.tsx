import type { Principal } from "@/lib/shared/principal";
import { listOverrides, overrideChoices } from "@/lib/control/data/override-list";
import type { ActionResult } from "@/components/forms/action-result";
import { SimpleForm, type FormOutcome } from "@/components/forms/simple-form";
import { OverrideTable, type EndOverride } from "@/components/overrides/override-table";
import { EVERY_CHECK } from "@/components/overrides/every-check";
import { choiceLabel } from "@/components/overrides/choice-label";

// The tenant page's temporary overrides: those in force and waiting, and (editors up) a
// form for a new one. A plan's or global route's limit needs an operator; the DAL says so.

export async function OverridesPanel({
  principal,
  slug,
  keyNames,
  canEdit,
  actions,
}: {
  principal: Principal;
  slug: string;
  keyNames: string[];
  canEdit: boolean;
  /** the page's server actions */
  actions: {
    create: (input: Record<string, string | string[]>) => Promise<ActionResult<FormOutcome | null>>;
    end: EndOverride;
  };
}) {
  const [{ at: renderedAt, overrides }, limits] = await Promise.all([
    listOverrides(principal, { tenant: slug }),
    overrideChoices(principal, slug),
  ]);
  return (
    <div className="panel" id="overrides" data-testid="overrides-panel">
      <h2>Temporary overrides</h2>
      <p className="muted">
        Raise, lower (0 blocks) or disable one limit for a while: every server applies it at its start and
        drops it at its end by itself. Counters are kept: usage counted before still counts.
      </p>
      <OverrideTable overrides={overrides} canEnd={canEdit} renderedAt={renderedAt} end={actions.end} />
      {canEdit && limits.length > 0 && (
        <SimpleForm
          action={actions.create}
          submitLabel="Create override"
          testId="override-form"
          fields={[
            { name: "tenant", label: "", type: "hidden", defaultValue: slug },
            {
              name: "limit",
              label: "Limit",
              type: "select",
              options: limits.map((l) => l.name),
              optionLabels: Object.fromEntries(limits.map((l) => [l.name, choiceLabel(l)])),
              hint: "shown with its configured values",
            },
            { name: "target", label: "For", type: "select", options: [EVERY_CHECK, ...keyNames] },
            {
              name: "subject",
              label: "Subject (optional)",
              placeholder: "203.0.113.9",
              hint: "only this subject's checks",
            },
            {
              name: "value",
              label: "New limit",
              placeholder: "500",
              hint: 'a number (0 blocks) or "disabled"; a burst scales with it (10, burst 20 raised to 50 holds 100)',
            },
            { name: "startsIn", label: "Starts in", placeholder: "now", hint: "empty: now; or 30m, 2h, 1d" },
            { name: "lasts", label: "Lasts", placeholder: "1h", hint: "at most 90d from now" },
            {
              name: "reason",
              label: "Reason",
              placeholder: "launch week",
              hint: "required, shown in the audit log",
            },
          ]}
        />
      )}
    </div>
  );
}
