import "server-only";
import { ROLE_RANK, type Role } from "@/lib/shared/principal";

// An admin token is never worth more than its maker: what it may do is worked out at each
// request from the maker's account as it is now, not only from the role written on it.

/** The account that made a token, as it is now. */
export interface TokenMaker {
  isOperator: boolean;
  disabledAt: Date | null;
  /** the maker's membership in the token's tenant (null for none or an operator token) */
  membership: { role: Role; createdAt: Date } | null;
}

export interface TokenFacts {
  tenantId: string | null;
  role: Role | null;
  createdAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  /** null for tokens made by the bootstrap token or a server script: no account to follow */
  userId: string | null;
  maker: TokenMaker | null;
}

export type TokenAuthority =
  /** note: why it acts below the role written on it, when it does */
  { ok: true; role: Role | "operator"; note: string | null } | { ok: false; reason: string };

const lower = (a: Role, b: Role): Role => (ROLE_RANK[a] <= ROLE_RANK[b] ? a : b);

export function tokenAuthority(token: TokenFacts): TokenAuthority {
  if (token.revokedAt) return { ok: false, reason: token.revokedReason ?? "revoked" };
  // A tenant token always has a role (the DAL writes both); default to the weakest if not.
  const written: Role | "operator" = token.tenantId === null ? "operator" : (token.role ?? "viewer");
  if (token.userId === null) return { ok: true, role: written, note: null };
  const maker = token.maker;
  if (!maker) return { ok: false, reason: "maker deleted" };
  if (maker.disabledAt) return { ok: false, reason: "maker disabled" };
  if (written === "operator") {
    return maker.isOperator
      ? { ok: true, role: "operator", note: null }
      : { ok: false, reason: "maker is no longer an operator" };
  }
  if (maker.isOperator) return { ok: true, role: written, note: null };
  // A membership newer than the token is a re-admission: it does not revive the token.
  const membership = maker.membership;
  if (!membership || membership.createdAt.getTime() > token.createdAt.getTime())
    return { ok: false, reason: "maker removed" };
  const role = lower(written, membership.role);
  const note = role === written ? null : `maker's role is now ${role}: acts as ${role}`;
  return { ok: true, role, note };
}
