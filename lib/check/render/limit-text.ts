import type { CompiledLimit } from "@/lib/check/published/snapshot-types";
import { sharedText } from "@/lib/check/render/flat-text";
import { asciiJson } from "@/lib/shared/ascii-json";

// The pieces of a decision's text that depend on one limit or one config version, made once
// and shared by every template they appear in (decision-template.ts), and the rule that picks
// the limit a decision reports at its top level.

export interface LimitText {
  enforce: boolean;
  /** the quota, as the body's top-level "limit" when this limit decides */
  quota: number;
  /** `{"name":...,"remaining":` */
  head: string;
  /** `,"allowed":true,"mode":"..."}` and its false form */
  allowedTail: string;
  deniedTail: string;
  /** `"name";r=` of the RateLimit field */
  field: string;
}

/** The deciding limit (summarize()'s rule, on the integers): its index, -1 for none. */
export function decidingLimit(limits: readonly LimitText[], reply: readonly number[], at: number): number {
  let deciding = -1;
  let best = 0; // its base in reply
  for (let i = 0; i < limits.length; i++) {
    if (!(limits[i] as LimitText).enforce) continue;
    const base = at + 2 + 6 * i;
    const status = reply[base] as number;
    if (deciding < 0) {
      deciding = i;
      best = base;
      continue;
    }
    const bestStatus = reply[best] as number;
    let better: boolean;
    if (status !== 1) {
      // a denial beats an admission; cost_exceeds_capacity the other reasons; then the
      // latest retry (-1: never, the latest of all)
      const retry = reply[base + 4] as number;
      const bestRetry = reply[best + 4] as number;
      better =
        bestStatus === 1 ||
        (status === 2 && bestStatus !== 2) ||
        ((status === 2) === (bestStatus === 2) &&
          (retry < 0 ? bestRetry >= 0 : bestRetry >= 0 && retry > bestRetry));
    } else {
      // among admissions, the least remaining
      better = bestStatus === 1 && (reply[base + 2] as number) < (reply[best + 2] as number);
    }
    if (better) {
      deciding = i;
      best = base;
    }
  }
  return deciding;
}

// A limit's text is the same in every template it appears in: made once per compiled limit
// (objects of one config version), its strings shared (sharedText).
const limitTexts = new WeakMap<CompiledLimit, LimitText>();

export function limitText(limit: CompiledLimit): LimitText {
  let text = limitTexts.get(limit);
  if (text === undefined) {
    const { rule } = limit;
    const over = limit.override;
    // a temporary override in force is named after the mode (decision-body.ts's order)
    const mode =
      asciiJson(rule.mode) +
      (over ? `,"override":{"id":${asciiJson(over.id)},"endsAt":${asciiJson(over.endsAt)}}` : "");
    text = {
      enforce: rule.mode === "enforce",
      quota: rule.limit,
      head: sharedText(
        `{"name":${asciiJson(limit.name)},"level":${asciiJson(limit.level)},` +
          `"by":${asciiJson(limit.by)},"algorithm":${asciiJson(rule.algorithm)},` +
          `"limit":${rule.limit},"windowMs":${rule.windowMs},"remaining":`,
      ),
      allowedTail: sharedText(`,"allowed":true,"mode":${mode}}`),
      deniedTail: sharedText(`,"allowed":false,"mode":${mode}}`),
      field: sharedText(`"${limit.name}";r=`),
    };
    limitTexts.set(limit, text);
  }
  return text;
}

/** The answer's end naming a config version; the last one made is kept (one per change). */
export function versionTail(version: number): string {
  if (version !== lastTail.version)
    lastTail = { version, text: sharedText(`],"degraded":false,"configVersion":${version}}`) };
  return lastTail.text;
}
let lastTail = { version: -1, text: "" };
