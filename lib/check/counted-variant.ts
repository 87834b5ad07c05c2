import "server-only";
import type { ConfigIndex } from "@/lib/check/config-index";
import type { HotCheck } from "@/lib/check/hot-checks";
import type { CheckShape } from "@/lib/check/shape-types";
import type { CheckInput } from "@/lib/check/types";
import { recordedAnswer, type CheckAnswer } from "@/lib/check/check-answer";
import { checkMetrics } from "@/lib/check/check-metrics";
import type { ListVerdict } from "@/lib/check/lists/list-matcher";
import { allowedShape, deniedByList } from "@/lib/check/list-shapes";
import { subnetSubject } from "@/lib/check/lists/subnet-subject";
import { overriddenShape } from "@/lib/check/override-variants";
import { refreshCalendar } from "@/lib/check/calendar-rules";

// What a check is counted with once its subject and the time are known: the allow and deny
// lists (a deny answers here), subnet keying of IP subjects, a temporary override's shape (a
// block answers here), an allow list's skipped limits, and calendar limits' current period.
// Checks with none of these (no subject, no override, no calendar limit) never come here.

export interface CountedCheck {
  shape: CheckShape;
  /** the hot entry's state keys, when the shape is still the entry's own; else null */
  base: string[] | null;
  input: CheckInput;
}

/** The check's shape, keys and input as counted; null when it was answered here. */
export function countedVariant(
  hot: HotCheck,
  given: CheckInput,
  config: ConfigIndex,
  version: number,
  done: (answer: CheckAnswer) => void,
): CountedCheck | null {
  const { key } = hot;
  let { shape, keys: base } = hot;
  let input = given;
  let listed: ListVerdict;
  if (input.subject !== null) {
    // allow and deny lists meet the subject as sent; a deny counts nothing (list-shapes.ts)
    const lists = config.lists;
    const tenant = shape.resolved.tenant;
    const own = lists.tenants.size > 0 ? (lists.tenants.get(tenant.slug) ?? null) : null;
    if (lists.global !== null || own !== null) {
      listed = lists.verdicts.verdict(lists.global, own, tenant.slug, input.subject);
      if (listed?.deny === true) {
        checkMetrics.listMatch("deny");
        const rendered = deniedByList(shape, key?.name ?? null, version);
        done(recordedAnswer(rendered, tenant.id, key?.id ?? null, shape.resolved.route, input));
        return null;
      }
    }
    // subnet keying: an address counts as its network from here on
    if (tenant.ipSubjects !== undefined)
      input = { ...input, subject: subnetSubject(input.subject, tenant.ipSubjects) };
  }
  if (shape.overrides !== null) {
    // temporary overrides: a subject's own shape, or a block answered there
    const variant = overriddenShape(hot, shape.overrides, input, config.snapshot, version, done);
    if (variant === null) return null;
    if (variant !== shape) base = null;
    shape = variant;
  }
  if (listed !== undefined && !listed.deny) {
    checkMetrics.listMatch("allow");
    shape = allowedShape(shape, hot.target, listed.skip, config.snapshot, version);
    base = null;
  }
  // calendar limits past their period's end: the next period's bounds (calendar-rules.ts)
  if (shape.calendarUntil !== Infinity) refreshCalendar(shape);
  return { shape, base, input };
}
