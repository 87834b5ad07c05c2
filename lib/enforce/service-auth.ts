import "server-only";
import { sameDigest, sha256Hex } from "@/lib/auth/secrets";
import type { ConfigIndex } from "@/lib/enforce/config-index";
import { TtlLru } from "@/lib/enforce/ttl-lru";

// Who calls /api/check*: a service token from the published config (looked up by the
// SHA-256 of the bearer token), or the bootstrap token (compared in constant time).
// Recently seen tokens are remembered per config version (bounded), so a busy caller does
// not hash its token on every request; a new version (a token revoked) starts afresh.

/** null tenants: may check for every tenant. */
export interface Caller {
  id: string;
  tenants: ReadonlySet<string> | null;
}

const BEARER = /^Bearer +(\S+) *$/i;
const UNKNOWN: Caller = { id: "", tenants: null };

export class ServiceAuth {
  private readonly seen = new TtlLru<Caller>(1_000, 60_000);
  private version = -1;
  private readonly bootstrapDigest: string | null;

  constructor(bootstrapToken: string | undefined) {
    this.bootstrapDigest = bootstrapToken ? sha256Hex(bootstrapToken) : null;
  }

  /** The caller, or null for a missing, malformed or unknown credential (401). */
  authenticate(header: string | undefined, config: ConfigIndex): Caller | null {
    if (!header) return null;
    const token = BEARER.exec(header)?.[1];
    if (!token) return null;
    if (this.version !== config.version) {
      this.seen.clear();
      this.version = config.version;
    }
    let caller = this.seen.get(token);
    if (!caller) {
      caller = this.lookup(token, config);
      this.seen.set(token, caller);
    }
    return caller === UNKNOWN ? null : caller;
  }

  private lookup(token: string, config: ConfigIndex): Caller {
    const digest = sha256Hex(token);
    if (this.bootstrapDigest !== null && sameDigest(digest, this.bootstrapDigest)) {
      return { id: "bootstrap", tenants: null };
    }
    // Keyed by the digest, not the secret: how long a lookup takes can only tell an attacker
    // about digests of tokens they already hold, which gives nothing about a 192-bit secret.
    const published = config.serviceTokens.get(digest);
    if (!published) return UNKNOWN;
    return { id: published.id, tenants: published.tenants === null ? null : new Set(published.tenants) };
  }
}

export function mayCheck(caller: Caller, tenantSlug: string): boolean {
  return caller.tenants === null || caller.tenants.has(tenantSlug);
}
