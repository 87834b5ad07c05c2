import "server-only";
import { degradedBody } from "@/lib/enforce/decision-body";
import { DecisionTemplate } from "@/lib/enforce/render/decision-template";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import type { Resolved } from "@/lib/enforce/resolve";
import type { CheckInput } from "@/lib/enforce/types";
import { prepareCheck } from "@/lib/limiter/evaluate-many";
import type { LimitArgs } from "@/lib/limiter/types";
import { wallNow } from "@/lib/shared/wall-clock";

// What a check resolved to under the current config version, kept for the next check with
// the same apiKey (or tenant and key), route and subject: services send the same few
// combinations over and over, and everything below depends on nothing else. A hit skips
// hashing the key, matching the route, merging limits, building the counters' Redis keys,
// validating the rules and laying out the answer's text (decision-template.ts). Cleared on every new version (keys, limits or routes may have
// changed); a key's expiry is the one thing that can change within a version, so it is
// checked on every use. Bounded: the oldest entry goes first (a flood of random subjects
// only recycles entries, each as dear to rebuild as a check without this cache).

export interface HotResolution {
  resolved: Resolved;
  /** the limiter's keys and six integers per matched limit, validated once */
  keys: string[];
  rules: LimitArgs[];
  /** the deny cache's signature (same counters), null when a shadow limit applies */
  signature: string | null;
  /** renders Redis' answers for this check */
  template: DecisionTemplate;
  /** the answer when Redis is not reached in time, rendered on first need */
  degraded: RenderedDecision | null;
}

/** The degraded answer of a hot check (every limit by its onStoreFailure), rendered once. */
export function degradedAnswer(hot: HotResolution, configVersion: number): RenderedDecision {
  return (hot.degraded ??= renderBody(degradedBody(hot.resolved, configVersion)));
}

/**
 * The cache key of a check. Unambiguous: the form letter first, then the route (no white
 * space but its one space, never a newline), the subject with its length, then the rest.
 */
export function hotKeyOf(input: CheckInput): string {
  const subject = input.subject === null ? "-" : `${input.subject.length}:${input.subject}`;
  const head = `${input.route ?? ""}\n${subject}`;
  return input.apiKey !== null
    ? `a${head}${input.apiKey}`
    : `t${head}${input.tenant ?? ""}\n${input.key ?? ""}`;
}

export class HotResolutions {
  private readonly entries = new Map<string, HotResolution>();

  constructor(private readonly capacity = 10_000) {}

  /** The entry for this check if it is still valid at `now()` (its key not expired). */
  get(hotKey: string, now: () => number = wallNow): HotResolution | undefined {
    const entry = this.entries.get(hotKey);
    if (!entry) return undefined;
    const expiresAt = entry.resolved.keyExpiresAt;
    if (expiresAt !== null && expiresAt <= now()) {
      this.entries.delete(hotKey);
      return undefined;
    }
    return entry;
  }

  /** Prepares and keeps a resolution; throws RangeError for rules the limiter refuses. */
  remember(hotKey: string, resolved: Resolved, input: CheckInput, configVersion: number): HotResolution {
    const { specs, hasShadow } = resolved.matched;
    const { keys, rules } = prepareCheck({ limits: specs, request: { cost: 1, dryRun: false } });
    const signature = hasShadow
      ? null
      : `${resolved.tenant.id}\n${resolved.keyId ?? ""}\n${resolved.route ?? ""}\n${input.subject ?? ""}`;
    const who = { tenant: resolved.tenant.slug, key: resolved.keyName, route: resolved.route };
    const template = new DecisionTemplate(resolved.matched.limits, who, configVersion);
    const entry: HotResolution = { resolved, keys, rules, signature, template, degraded: null };
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hotKey, entry);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
