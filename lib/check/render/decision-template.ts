import type { CompiledLimit } from "@/lib/check/published/snapshot-types";
import { decidingLimit, limitText, versionTail, type LimitText } from "@/lib/check/render/limit-text";
import { headerLines, type RenderedDecision } from "@/lib/check/render/rendered";
import type { DecisionOutcome, DecisionReason } from "@/lib/check/types";
import { sharedText } from "@/lib/check/render/flat-text";
import { asciiJson } from "@/lib/shared/ascii-json";
import { bindsBefore, policyTail, singleHead, singleTail, type SingleFlavour } from "@/lib/check/headers";
import type { HeaderFlavour } from "@/lib/shared/config-terms";

// The decision of a resolved check, rendered straight from the limiter script's integers
// (lua/check.lua's reply: allowed, nowMs, then status, consumed, remaining, resetMs,
// retryAfterMs, waitMs per limit) into the JSON body and RateLimit headers: everything
// that depends only on the resolution (names, levels, algorithms, quotas, the tenant, key
// and route, the RateLimit-Policy field) is text made once per resolution. The config
// version the answer names is the one it was decided under: the template's own unless the
// caller passes another (a shape kept across versions of other tenants). The same answer as summarize() + limiterBody() + asciiJson() +
// rateLimitHeaders(), character for character (tests/unit/enforce/decision-template.test.ts),
// without the objects in between: on the check path those were most of the work left. The
// tenant's header flavour is fixed per template: draft-11 renders as it always did, the
// single-valued flavours pick the binding limit and add its tail to a head made here.

const REASONS: readonly DecisionReason[] = ["rate_limited", "ok", "cost_exceeds_capacity", "penalty"];
const seconds = (ms: number): number => Math.ceil(ms / 1000);

export class DecisionTemplate {
  private readonly limits: LimitText[];
  /** `,"tenant":...,"key":` and `,"route":...,"limit":`: the key's name goes between */
  private readonly beforeKey: string;
  private readonly afterKey: string;
  /** `],"degraded":false,"configVersion":N}` for the version it was made under */
  private readonly tail: string;
  /** the config version it was made under */
  readonly version: number;
  private readonly policyLine: string;
  /** single-valued header flavours: the flavour and each limit's head text (headers.ts); null: draft-11 */
  private readonly single: { flavour: SingleFlavour; heads: string[] } | null;
  /** how many integers of the script's reply are this check's: 2 + 6 per limit */
  readonly replySize: number;
  /** the length of the text it refers to (what a cache of templates counts in bytes; an
   * upper bound, as templates share their limits' and route's text) */
  readonly chars: number;

  constructor(
    limits: readonly CompiledLimit[],
    who: { tenant: string; route: string | null },
    configVersion: number,
    flavour: HeaderFlavour = "draft-11",
  ) {
    this.limits = limits.map(limitText);
    this.beforeKey = sharedText(`,"tenant":${asciiJson(who.tenant)},"key":`);
    this.afterKey = sharedText(`,"route":${asciiJson(who.route)},"limit":`);
    this.version = configVersion;
    this.tail = versionTail(configVersion);
    this.replySize = 2 + 6 * limits.length;
    let policy = "";
    for (const limit of limits) {
      if (limit.rule.mode !== "enforce") continue;
      const tail = policyTail(limit.rule.algorithm, limit.rule.windowMs);
      policy += `${policy === "" ? "" : ", "}"${limit.name}";q=${limit.rule.limit}${tail}`;
    }
    this.single =
      flavour === "draft-11"
        ? null
        : {
            flavour,
            heads: limits.map((limit) =>
              sharedText(singleHead(flavour, limit.rule.limit, limit.rule.windowMs)),
            ),
          };
    this.policyLine =
      policy === "" || this.single !== null ? "" : sharedText(headerLines(policy, null, null));
    let chars = this.beforeKey.length + this.afterKey.length + this.tail.length + this.policyLine.length;
    for (const head of this.single?.heads ?? []) chars += head.length;
    for (const text of this.limits)
      chars += text.head.length + text.allowedTail.length + text.deniedTail.length + text.field.length;
    this.chars = chars;
  }

  /** Whether limit i binds before limit j (headers.ts) in the reply at reply[at]. */
  private bindsBefore(reply: readonly number[], at: number, i: number, j: number, elapsed: number): boolean {
    const a = at + 2 + 6 * i;
    const b = at + 2 + 6 * j;
    const limits = this.limits;
    return bindsBefore(
      reply[a] !== 1,
      reply[a + 2] as number,
      (limits[i] as LimitText).quota,
      Math.max(0, (reply[a + 3] as number) - elapsed),
      reply[b] !== 1,
      reply[b + 2] as number,
      (limits[j] as LimitText).quota,
      Math.max(0, (reply[b + 3] as number) - elapsed),
    );
  }

  /**
   * The decision of the check whose reply starts at reply[at], naming the key whose name's
   * JSON is `keyJson` (keys sharing a limit set share a template). A deny cache hit passes the
   * whole ms `elapsed` since the call (reset times count down by it) and the top-level
   * retryAfterMs to report (see deny-cache.ts). `version`: the config version to name.
   */
  render(
    reply: readonly number[],
    at: number,
    keyJson: string,
    elapsed = 0,
    retryOverride: number | null = null,
    version: number = this.version,
  ): RenderedDecision {
    const limits = this.limits;
    const deciding = decidingLimit(limits, reply, at);
    let denied = false;
    let waitMs = 0;
    let shadowDenied = false;
    let items = "";
    let rateLimit = "";
    const single = this.single;
    let binding = -1; // single-valued flavours: the limit they report (headers.ts, bindsBefore)
    for (let i = 0; i < limits.length; i++) {
      const base = at + 2 + 6 * i;
      const status = reply[base] as number;
      if (status !== 0 && status !== 1 && status !== 2 && status !== 3)
        throw new Error(`limiter script: bad status ${status}`);
      const remaining = reply[base + 2] as number;
      const resetMs = Math.max(0, (reply[base + 3] as number) - elapsed);
      const text = limits[i] as LimitText;
      const allowed = status === 1;
      items += `${i === 0 ? "" : ","}${text.head}${remaining},"resetMs":${resetMs}${allowed ? text.allowedTail : text.deniedTail}`;
      if (!text.enforce) {
        if (!allowed) shadowDenied = true;
        continue;
      }
      if (single === null)
        rateLimit += `${rateLimit === "" ? "" : ", "}${text.field}${remaining};t=${seconds(resetMs)}`;
      else if (binding < 0 || this.bindsBefore(reply, at, i, binding, elapsed)) binding = i;
      if (!allowed) denied = true;
      else waitMs = Math.max(waitMs, reply[base + 5] as number);
    }
    if (denied === (reply[at] === 1)) throw new Error("limiter script: verdict disagrees with its limits");

    let reason: DecisionReason = "ok";
    let top = 'null,"remaining":null,"resetMs":null,"retryAfterMs":null';
    let retryAfterMs: number | null = null;
    if (deciding >= 0) {
      const base = at + 2 + 6 * deciding;
      if (denied) {
        reason = REASONS[reply[base] as number] as DecisionReason;
        const retry = reply[base + 4] as number;
        retryAfterMs = retryOverride ?? (retry < 0 ? null : Math.max(0, retry - elapsed));
      }
      const resetMs = Math.max(0, (reply[base + 3] as number) - elapsed);
      const quota = (limits[deciding] as LimitText).quota;
      top = `${quota},"remaining":${reply[base + 2]},"resetMs":${resetMs},"retryAfterMs":${retryAfterMs}`;
    }
    const json =
      `{"allowed":${!denied},"reason":"${reason}"${this.beforeKey}${keyJson}${this.afterKey}${top},` +
      `"waitMs":${denied ? 0 : waitMs},"limits":[${items}${version === this.version ? this.tail : versionTail(version)}`;
    const retryLine = denied && retryAfterMs !== null ? `retry-after: ${seconds(retryAfterMs)}\r\n` : "";
    const outcome: DecisionOutcome = denied ? "rejected" : shadowDenied ? "shadow_rejected" : "allowed";
    let rateLines: string;
    if (single === null)
      rateLines = `${this.policyLine}${rateLimit === "" ? "" : `ratelimit: ${rateLimit}\r\n`}`;
    else if (binding < 0) rateLines = "";
    else {
      const base = at + 2 + 6 * binding;
      const resetMs = Math.max(0, (reply[base + 3] as number) - elapsed);
      const quota = (limits[binding] as LimitText).quota;
      // the limiter's clock, moved on by the deny cache's elapsed time
      const nowMs = (reply[at + 1] as number) + elapsed;
      rateLines =
        (single.heads[binding] as string) +
        singleTail(single.flavour, quota, reply[base + 2] as number, resetMs, nowMs);
    }
    return {
      json,
      headers: `${rateLines}${retryLine}`,
      allowed: !denied,
      reason,
      outcome,
      retryAfterMs,
      cause: null,
    };
  }
}
