import type { EditScope } from "@/lib/control/data/queries/limit-hierarchy";
import type { LimitTarget } from "@/lib/control/data/edits/limit-target";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";

/** The server action that deletes a limit (the page passes it in: components import no app/ code). */
export type DeleteLimitAction = (input: {
  target: LimitTarget;
  name: string;
}) => Promise<ActionResult<unknown>>;

export function targetOf(slug: string, scope: EditScope): LimitTarget {
  switch (scope.kind) {
    case "tenant":
      return { kind: "tenant", tenant: slug };
    case "tenant-route":
      return { kind: "tenant-route", tenant: slug, pattern: scope.pattern };
    case "key":
      return { kind: "key", tenant: slug, key: scope.key };
    case "plan":
      return { kind: "plan", plan: scope.plan };
    case "global-route":
      return { kind: "global-route", pattern: scope.pattern };
  }
}

export function DeleteLimitButton({
  slug,
  scope,
  name,
  reverts,
  deleteAction,
}: {
  slug: string;
  scope: EditScope;
  name: string;
  reverts: boolean;
  deleteAction: DeleteLimitAction;
}) {
  return (
    <ConfirmButton
      label={reverts ? "Remove override" : "Delete"}
      confirmLabel={reverts ? "Remove override" : "Delete limit"}
      question={
        reverts ? `Go back to the inherited ${name}?` : `Delete ${name}? Checks stop counting it at once.`
      }
      action={deleteAction.bind(null, { target: targetOf(slug, scope), name })}
    />
  );
}
