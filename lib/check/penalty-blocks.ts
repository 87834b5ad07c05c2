import type { CompiledLimit } from "@/lib/check/published/snapshot-types";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { flavourOf } from "@/lib/check/headers";
import { blockEntryOf } from "@/lib/check/limiter/penalty-args";
import type { CheckShape, ShapePenalties } from "@/lib/check/shape-types";
import type { LimitArgs } from "@/lib/check/limiter/types";
import type { Clock } from "@/lib/check/ttl-lru";
import type { LimitBy } from "@/lib/shared/limit-types";

// Penalty blocks this server knows (docs/algorithms.md, Penalties), answered from memory
// until they end, without Redis. Exact for the same reason as the deny cache: a blocked
// check consumes nothing, and until its end no other traffic can lift a block (only an
// operator, whose lift clears every server's table: counter-signals.ts). A block is learnt
// from a Lua reply (status 3 of an enforce limit with a penalty), keyed by the limit's
// counter (its tenant, block entry and owner), so every check that meets that counter (any
// route, key or subject of the limit's scope) is answered here, whatever its shape. Its end
// is measured from when the call was sent, never later than Redis' own. Dry runs teach
// nothing (a dry run reports a block it does not record). Shapes with a shadow limit stay
// out: shadow limits must still be counted.

/** The penalties part of a shape, or null (nearly every shape: checks then pay nothing). */
export function shapePenalties(
  tenantId: string,
  limits: readonly CompiledLimit[],
  rules: readonly LimitArgs[],
  hasShadow: boolean,
): ShapePenalties | null {
  if (hasShadow) return null;
  const slots: number[] = [];
  const scopes: string[] = [];
  const bys: LimitBy[] = [];
  limits.forEach((limit, i) => {
    const rule = rules[i];
    if (limit.rule.penalty === undefined || limit.rule.mode !== "enforce" || rule === undefined) return;
    slots.push(i);
    // the ENTRY slot: the limit's entry (its id, route and algorithm), then its penalty
    scopes.push(`${tenantId}\n${blockEntryOf(rule[6].slice(0, 8))}`);
    bys.push(limit.by);
  });
  return slots.length === 0 ? null : { slots, scopes, bys, templates: slots.map(() => undefined) };
}

interface Block {
  /** clock time the block ends */
  until: number;
  /** the last answer made from it: its retry time, version and key (same-ms hits share it) */
  memo?: { retry: number; version: number; keyJson: string; slot: number; rendered: RenderedDecision };
}

/** A block found for a check: which slot of its shape, and the block. */
export interface BlockHit {
  slot: number;
  block: Block;
}

/** Whose counter a slot's limit counts in this check (limit-specs.ts's owners), or null. */
function ownerText(by: LimitBy, keyId: string | null, subject: string | null): string | null {
  return by === "tenant" ? "" : by === "key" ? keyId : subject;
}

export class PenaltyBlocks {
  // scope (tenant and block entry: strings made once per shape) -> owner -> block: a lookup
  // hashes no string made per check but the subject, as the deny cache's signature does
  private readonly scopes = new Map<string, Map<string, Block>>();
  private count = 0;

  constructor(
    private readonly capacity = 100_000,
    private readonly now: Clock = performance.now.bind(performance),
  ) {}

  get empty(): boolean {
    return this.count === 0;
  }

  /** The latest-ending block among the check's penalized counters that is still in force. */
  find(penalties: ShapePenalties, keyId: string | null, subject: string | null): BlockHit | undefined {
    let hit: BlockHit | undefined;
    for (let j = 0; j < penalties.slots.length; j++) {
      const scope = this.scopes.get(penalties.scopes[j] as string);
      if (scope === undefined) continue;
      const owner = ownerText(penalties.bys[j] as LimitBy, keyId, subject);
      const block = owner === null ? undefined : scope.get(owner);
      if (block === undefined) continue;
      if (block.until <= this.now()) {
        scope.delete(owner as string);
        this.count--;
        continue;
      }
      if (hit === undefined || block.until > hit.block.until) hit = { slot: j, block };
    }
    return hit;
  }

  /** Learns the blocks a Lua reply reports (reply[at..]: the check's part), the call sent at `sentAt`. */
  learn(
    penalties: ShapePenalties,
    keyId: string | null,
    subject: string | null,
    reply: readonly number[],
    at: number,
    sentAt: number,
  ): void {
    for (let j = 0; j < penalties.slots.length; j++) {
      const base = at + 2 + 6 * (penalties.slots[j] as number);
      if (reply[base] !== 3) continue;
      const left = reply[base + 4] as number;
      const owner = ownerText(penalties.bys[j] as LimitBy, keyId, subject);
      if (!(left > 0) || owner === null) continue;
      // bounded: a flood of blocked identities only empties it (they are learnt again)
      if (this.count >= this.capacity) this.clear();
      const name = penalties.scopes[j] as string;
      let scope = this.scopes.get(name);
      if (scope === undefined) this.scopes.set(name, (scope = new Map()));
      if (!scope.has(owner)) this.count++;
      scope.set(owner, { until: sentAt + left });
    }
  }

  clear(): void {
    this.scopes.clear();
    this.count = 0;
  }
}

/**
 * A blocked check's answer at `now`: denied by the blocking limit alone (reason penalty),
 * its retry time the block's end (rounded up, at least 1 ms); the key named by `keyJson`.
 */
export function blockAnswer(
  shape: CheckShape,
  penalties: ShapePenalties,
  hit: BlockHit,
  keyJson: string,
  now: number,
  version: number,
): RenderedDecision {
  const retry = Math.max(1, Math.ceil(hit.block.until - now));
  const memo = hit.block.memo;
  if (
    memo &&
    memo.retry === retry &&
    memo.version === version &&
    memo.keyJson === keyJson &&
    memo.slot === hit.slot
  )
    return memo.rendered;
  let template = penalties.templates[hit.slot];
  if (template === undefined) {
    const limit = shape.resolved.matched.limits[penalties.slots[hit.slot] as number] as CompiledLimit;
    const { resolved } = shape;
    template = new DecisionTemplate(
      [limit],
      { tenant: resolved.tenant.slug, route: resolved.route },
      shape.template.version,
      flavourOf(resolved.tenant),
    );
    penalties.templates[hit.slot] = template;
  }
  // the script's reply layout: verdict, time, then status 3 (penalty), nothing consumed, none remaining, reset and retry at the block's end
  const rendered = template.render([0, Date.now(), 3, 0, 0, retry, retry, 0], 0, keyJson, 0, null, version);
  hit.block.memo = { retry, version, keyJson, slot: hit.slot, rendered };
  return rendered;
}
