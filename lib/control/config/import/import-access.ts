import "server-only";
import { isOperator, ROLE_RANK, type Principal } from "@/lib/shared/principal";
import { ForbiddenError } from "@/lib/control/errors/errors";

// Who may send a configuration document at all, decided from the principal alone, before
// the body is read or parsed: parsing is the costly part of an import, and a viewer's
// token must not be able to spend the server's time on a hostile document it could never
// apply. The import itself still checks the exact tenant (import-config.ts).

function mayEditSomeTenant(principal: Principal): boolean {
  if (isOperator(principal)) return true;
  if (principal.kind === "admin-token") {
    return principal.role !== null && ROLE_RANK[principal.role] >= ROLE_RANK.editor;
  }
  if (principal.kind === "user") {
    for (const role of principal.memberships.values()) if (ROLE_RANK[role] >= ROLE_RANK.editor) return true;
  }
  return false;
}

/** Throws 403 unless the principal could change some configuration. */
export function assertMayImport(principal: Principal): void {
  if (!mayEditSomeTenant(principal)) {
    throw new ForbiddenError("Your role cannot change configuration (it needs editor or above).");
  }
}
