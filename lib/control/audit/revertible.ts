// Which recorded changes the console can undo on their own, and which a rollback restores.
// Isomorphic: the history and audit views offer their buttons from these.

/** Configuration changes "revert this change" applies the inverse of (three-way, revert-change.ts). */
const REVERTIBLE = new Set([
  "tenant.update",
  "plan.create",
  "plan.update",
  "plan.delete",
  "route.update",
  "override.create",
  "alert-rule.create",
]);

export function isRevertible(action: string): boolean {
  return REVERTIBLE.has(action);
}

/**
 * Actions whose effect a rollback to an earlier version undoes: a later one of these is what
 * makes "Roll back to this" able to act (member, key and token changes it leaves as they are).
 */
export const ROLLBACK_RESTORES: readonly string[] = [
  "tenant.create",
  "tenant.update",
  "tenant.delete",
  "tenant.plan",
  "limit.create",
  "limit.update",
  "plan.create",
  "plan.update",
  "plan.delete",
  "route.update",
  "override.create",
  "alert-rule.create",
  "alert-rule.disable",
];
