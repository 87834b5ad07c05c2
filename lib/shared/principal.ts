import "server-only";

// Who is acting. Every DAL function takes one and scopes by tenant itself.

export type Role = "owner" | "admin" | "editor" | "viewer";

export const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

export type Principal =
  | {
      kind: "user";
      id: string;
      email: string;
      name: string;
      isOperator: boolean;
      /** tenantId -> role */
      memberships: ReadonlyMap<string, Role>;
      /** the IANA zone the console shows this user's dates in (account settings); absent: UTC */
      timeZone?: string;
    }
  | {
      kind: "admin-token";
      id: string;
      name: string;
      tenantId: string | null;
      role: Role | null;
      /** the user the token acts for (it stops working while they are disabled) */
      userId?: string | null;
    }
  | { kind: "bootstrap" }
  /** the seed and other maintenance scripts run on the server itself */
  | { kind: "system"; label: string };

export function isOperator(principal: Principal): boolean {
  switch (principal.kind) {
    case "bootstrap":
    case "system":
      return true;
    case "user":
      return principal.isOperator;
    case "admin-token":
      return principal.tenantId === null;
  }
}

/** The principal's role within a tenant, or null when it may not see the tenant at all. */
export function roleIn(principal: Principal, tenantId: string): Role | "operator" | null {
  if (isOperator(principal)) return "operator";
  if (principal.kind === "user") return principal.memberships.get(tenantId) ?? null;
  if (principal.kind === "admin-token" && principal.tenantId === tenantId) return principal.role;
  return null;
}

export function hasRole(principal: Principal, tenantId: string, needed: Role): boolean {
  const role = roleIn(principal, tenantId);
  if (role === null) return false;
  return role === "operator" || ROLE_RANK[role] >= ROLE_RANK[needed];
}

export function actorLabel(principal: Principal): string {
  switch (principal.kind) {
    case "bootstrap":
      return "bootstrap token";
    case "system":
      return principal.label;
    case "user":
      return principal.email;
    case "admin-token":
      return `token ${principal.name}`;
  }
}

/** A stable id for records of who did something: the user's or token's id, else the kind. */
/** The user on whose authority this principal acts, if any (tokens they made inherit it). */
export function actingUserId(principal: Principal): string | null {
  if (principal.kind === "user") return principal.id;
  return principal.kind === "admin-token" ? (principal.userId ?? null) : null;
}

export function actorIdOf(principal: Principal): string {
  return principal.kind === "bootstrap" || principal.kind === "system" ? principal.kind : principal.id;
}
