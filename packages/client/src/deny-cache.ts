import type { CheckRequest, Decision } from "./types";

// The local deny path: a check Sluice denied with a retry time is answered here, with no
// request, until that time (the server's own deny cache, one hop earlier). Only plain
// rate_limited denials are kept; the entry is keyed by everything that picks the limits
// and their counters (credential, route, subject, cost). Entries live at most `maxMs`, so a
// limit raised in the dashboard is seen within that time even when the retry time is hours.

export interface DenyCacheOptions {
  /** most entries kept; the oldest go first (default 10,000) */
  maxEntries?: number;
  /** longest an entry is trusted, whatever its retry time (default 5,000 ms) */
  maxMs?: number;
}

interface Entry {
  decision: Decision;
  at: number;
  until: number;
}

export function denyKey(check: CheckRequest): string {
  const who = check.apiKey !== undefined ? `k:${check.apiKey}` : `t:${check.tenant}/${check.key ?? ""}`;
  return `${who}\n${check.route ?? ""}\n${check.subject ?? ""}\n${check.cost ?? 1}`;
}

export class DenyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxMs: number;

  constructor(options: DenyCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxMs = options.maxMs ?? 5_000;
  }

  /** Remembers a denial with a retry time; anything else is ignored. */
  remember(key: string, decision: Decision, now: number): void {
    if (decision.allowed || decision.reason !== "rate_limited" || decision.degraded) return;
    // a concurrency limit's denial ends when any lease is released, before its retry time
    if (decision.limits.some((limit) => limit.algorithm === "concurrency")) return;
    const retry = decision.retryAfterMs;
    if (retry === null || retry <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { decision, at: now, until: now + Math.min(retry, this.maxMs) });
  }

  /** The denial still in force for this key, its times counted down; null when none. */
  lookup(key: string, now: number): Decision | null {
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    if (now >= entry.until) {
      this.entries.delete(key);
      return null;
    }
    const elapsed = now - entry.at;
    const less = (ms: number | null): number | null => (ms === null ? null : Math.max(0, ms - elapsed));
    const d = entry.decision;
    return {
      ...d,
      resetMs: less(d.resetMs),
      retryAfterMs: less(d.retryAfterMs),
      limits: d.limits.map((limit) => ({ ...limit, resetMs: less(limit.resetMs) })),
    };
  }

  get size(): number {
    return this.entries.size;
  }
}
