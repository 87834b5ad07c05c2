import type { DecisionTemplate } from "@/lib/check/render/decision-template";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { TtlLru, type Clock } from "@/lib/check/ttl-lru";

// Checks known to be denied, answered from memory until their retry time, without Redis.
// This stays exact because a denied check consumes nothing and, until its retryAfterMs, the
// same limits with the same owners cannot admit it: other traffic only consumes more. So a
// stored denial is reused only for the same check signature (tenant, key, route, subject:
// the same counters under one config version), only with the same cost (a larger cost is
// denied too, but maybe for another reason, cost_exceeds_capacity, and with a later retry
// time the cache cannot know), and never for a check with a shadow limit (shadow limits must
// still be evaluated and counted). The retry time is measured from when the call was sent,
// which is no later than when Redis decided, so the cache never denies past the true retry
// moment. A stored denial answers only a check counted with the very shape it was made with
// (its answer template, check-shapes.ts): a change to the tenant builds new shapes, so its
// denials stop answering at once (even one remembered by a call sent before the change),
// while other tenants' stay in use. A global change or a counter reset clears it.

/** A denial as Redis gave it: the script's integers for the check and how to render them. */
export interface Denial {
  template: DecisionTemplate;
  /** the key's name as JSON (the template is its limit set's) */
  keyJson: string;
  reply: readonly number[];
  at: number;
  rendered: RenderedDecision;
}

export interface DeniedEntry {
  template: DecisionTemplate;
  keyJson: string;
  /** the check's own part of the reply */
  reply: readonly number[];
  /** the last answer built from this entry and the two integers it depends on (see answerFor) */
  memo?: { elapsed: number; retry: number; version: number; rendered: RenderedDecision };
  cost: number;
  /** clock time the call was sent */
  sentAt: number;
  /** clock time from which the check may pass again */
  until: number;
}

export class DenyCache {
  private readonly entries: TtlLru<DeniedEntry>;

  constructor(
    capacity = 10_000,
    private readonly now: Clock = performance.now.bind(performance),
  ) {
    this.entries = new TtlLru<DeniedEntry>(capacity, 0, now);
  }

  /** Remembers a denial when it qualifies (rate_limited with a known retry time). */
  remember(signature: string, cost: number, denial: Denial, sentAt: number): void {
    const { rendered } = denial;
    if (rendered.allowed || rendered.reason !== "rate_limited" || rendered.retryAfterMs === null) return;
    if (rendered.retryAfterMs <= 0) return;
    const until = sentAt + rendered.retryAfterMs;
    const reply = denial.reply.slice(denial.at, denial.at + denial.template.replySize);
    this.entries.set(
      signature,
      { template: denial.template, keyJson: denial.keyJson, reply, cost, sentAt, until },
      until - this.now(),
    );
  }

  /**
   * Nothing stored. lookup() then answers at once: a Map hashes (and first flattens) the
   * signature even when empty, dear under traffic with no denials.
   */
  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** A stored denial that still holds for this cost and the shape's `template`, else undefined. */
  lookup(signature: string, cost: number, template: DecisionTemplate): DeniedEntry | undefined {
    if (this.empty) return undefined;
    const entry = this.entries.get(signature);
    if (!entry || cost !== entry.cost || entry.template !== template) return undefined;
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The answer for a hit at `now` under config `version` (the template's own by default): the
 * stored denial with its reset times counted down by the whole ms elapsed since the call,
 * and the retry time left (rounded up, at least 1 ms). Hits within the same ms share one
 * rendering, built once.
 */
export function answerFor(
  entry: DeniedEntry,
  now: number,
  version: number = entry.template.version,
): RenderedDecision {
  const elapsed = Math.max(0, Math.floor(now - entry.sentAt));
  const retry = Math.max(1, Math.ceil(entry.until - now));
  const memo = entry.memo;
  if (memo && memo.elapsed === elapsed && memo.retry === retry && memo.version === version)
    return memo.rendered;
  const rendered = entry.template.render(entry.reply, 0, entry.keyJson, elapsed, retry, version);
  entry.memo = { elapsed, retry, version, rendered };
  return rendered;
}
