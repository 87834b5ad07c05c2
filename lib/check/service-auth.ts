import "server-only";
import { sameDigest, sha256Hex } from "@/lib/shared/secrets";
import type { ConfigIndex } from "@/lib/check/config-index";
import { decisionSink } from "@/lib/check/decision-sink";
import type { FairOwner } from "@/lib/check/fair/fair-owner";

// Who calls /api/check*: a service token from the published config (looked up by the
// SHA-256 of the bearer token), or the bootstrap token (compared in constant time).
// Recently seen Authorization values are remembered per config version, so a busy caller
// neither parses nor hashes its token on every request; a new version (a token revoked)
// starts afresh. Bounded: a flood of made-up tokens only empties the memo, which costs the
// real callers one hash each. A service token's use is passed to the decision sink, which
// notes it in memory for the token's "last used".

/** null tenants: may check for every tenant. */
export interface Caller {
  id: string;
  tenants: ReadonlySet<string> | null;
  /** its fair-share owner, filled in on first use (lib/enforce/fair/fair-owner.ts) */
  owner?: FairOwner;
}

const BEARER = /^Bearer +(\S+) *$/i;
const UNKNOWN: Caller = { id: "", tenants: null };
const SEEN_MAX = 1_000;

export class ServiceAuth {
  private readonly seen = new Map<string, Caller>();
  /** the published tokens `seen` was filled from: replaced only by a global change or a whole load */
  private tokens: ConfigIndex["serviceTokens"] | null = null;
  private readonly bootstrapDigest: string | null;
  private readonly bootstrap: Caller = { id: "bootstrap", tenants: null };

  constructor(bootstrapToken: string | undefined) {
    this.bootstrapDigest = bootstrapToken ? sha256Hex(bootstrapToken) : null;
  }

  /** The caller, or null for a missing, malformed or unknown credential (401). */
  authenticate(header: string | undefined, config: ConfigIndex): Caller | null {
    if (!header) return null;
    if (this.tokens !== config.serviceTokens) {
      // tokens live in the global part: a tenant's change leaves the callers as they were
      this.seen.clear();
      this.tokens = config.serviceTokens;
    }
    let caller = this.seen.get(header);
    if (caller === undefined) {
      const token = BEARER.exec(header)?.[1];
      caller = token ? this.lookup(token, config) : UNKNOWN;
      if (this.seen.size >= SEEN_MAX) this.seen.clear();
      this.seen.set(header, caller);
    }
    if (caller === UNKNOWN) return null;
    if (caller !== this.bootstrap) decisionSink().tokenUsed?.(caller.id);
    return caller;
  }

  private lookup(token: string, config: ConfigIndex): Caller {
    const digest = sha256Hex(token);
    if (this.bootstrapDigest !== null && sameDigest(digest, this.bootstrapDigest)) return this.bootstrap;
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
