import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/shared/principal";
import type { TokenMaker } from "@/lib/control/auth/policy/token-authority";

// A token's maker as tokenAuthority (lib/control/auth/policy/token-authority.ts) weighs it,
// read with the token.

/** What to read of a token's maker: select this as the token's `user`. */
export const MAKER_SELECT = {
  select: {
    isOperator: true,
    disabledAt: true,
    memberships: { select: { tenantId: true, role: true, createdAt: true } },
  },
} as const satisfies Prisma.UserDefaultArgs;

interface MakerRow {
  isOperator: boolean;
  disabledAt: Date | null;
  memberships: { tenantId: string; role: Role; createdAt: Date }[];
}

/** The maker as tokenAuthority needs it, from a MAKER_SELECT row. */
export function makerOf(user: MakerRow | null, tenantId: string | null): TokenMaker | null {
  if (!user) return null;
  const membership = user.memberships.find((m) => m.tenantId === tenantId) ?? null;
  return { isOperator: user.isOperator, disabledAt: user.disabledAt, membership };
}
