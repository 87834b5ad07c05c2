import "server-only";
import { db } from "@/lib/control/data/db";
import { env } from "@/lib/shared/env";
import type { Principal, Role } from "@/lib/shared/principal";
import { sameDigest, sha256Hex } from "@/lib/shared/secrets";
import { tokenAuthority } from "@/lib/control/auth/policy/token-authority";
import { MAKER_SELECT, makerOf } from "@/lib/control/data/auth/token-makers";

// Bearer credentials of the admin API (docs/api.md, Credentials): the bootstrap token from the
// environment, or an admin token stored as its SHA-256. A service token is a known
// credential without this right (403); anything else is unknown (401).

export type BearerOutcome =
  { ok: true; principal: Principal } | { ok: false; status: 401 | 403; message: string };

/** How often lastUsedAt is written: a busy token must not turn every call into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

const UNKNOWN: BearerOutcome = {
  ok: false,
  status: 401,
  message: "The bearer token is not valid (unknown, revoked or mistyped).",
};

/** The token of "Bearer <token>", or null when the header is absent or another scheme. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

function isBootstrap(hash: string): boolean {
  const configured = env().SLUICE_BOOTSTRAP_TOKEN;
  // Compare digests, not the strings: equal length, constant time, whatever was sent.
  return configured !== undefined && sameDigest(hash, sha256Hex(configured));
}

export async function resolveBearer(token: string): Promise<BearerOutcome> {
  // Longer than any secret we issue: not worth hashing, certainly not worth a query.
  if (token.length > 512) return UNKNOWN;
  const hash = sha256Hex(token);
  if (isBootstrap(hash)) return { ok: true, principal: { kind: "bootstrap" } };
  const row = await db().adminToken.findUnique({
    where: { hash },
    select: {
      id: true,
      name: true,
      tenantId: true,
      role: true,
      createdAt: true,
      revokedAt: true,
      revokedReason: true,
      lastUsedAt: true,
      userId: true,
      user: MAKER_SELECT,
    },
  });
  if (row) {
    // Read now, on every request: a maker's demotion, removal or disabling counts at once.
    const authority = tokenAuthority({ ...row, maker: makerOf(row.user, row.tenantId) });
    if (!authority.ok) return UNKNOWN;
    touchLastUsed(row.id, row.lastUsedAt);
    return { ok: true, principal: adminTokenPrincipal(row, authority.role) };
  }
  const service = await db().serviceToken.findUnique({ where: { hash }, select: { revokedAt: true } });
  if (service && service.revokedAt === null) {
    return {
      ok: false,
      status: 403,
      message: "A service token may call /api/check only; use an admin API token for /api/admin.",
    };
  }
  return UNKNOWN;
}

function adminTokenPrincipal(
  row: { id: string; name: string; tenantId: string | null; userId: string | null },
  role: Role | "operator",
): Principal {
  return {
    kind: "admin-token",
    id: row.id,
    name: row.name,
    tenantId: row.tenantId,
    role: row.tenantId === null || role === "operator" ? null : role,
    userId: row.userId,
  };
}

/** Fire and forget; the conditional update keeps concurrent requests from all writing. */
function touchLastUsed(id: string, lastUsedAt: Date | null): void {
  const now = Date.now();
  if (lastUsedAt && now - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const stale = new Date(now - LAST_USED_RESOLUTION_MS);
  void db()
    .adminToken.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch((error: unknown) => console.warn("[sluice] could not record token use:", error));
}
