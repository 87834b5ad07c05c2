// Calendar quotas' own rules, per declaration once inheritance is known (check-limits.ts):
// a calendar limit counts a period (day, week, month), not a window, and has no burst; a
// period or a time zone means nothing to another algorithm. A window a calendar limit
// inherits from a plan's fixed window is not an error (it no longer applies); one it sets
// itself is. action delay and consistency local are refused by check-limits.ts's rules.

import type { DocumentError } from "./document-error";
import type { LimitDeclaration } from "./inheritance";
import { describeOrigin } from "./limit-origin";
import { mergeLimitFields } from "./normalize-limit";

function algorithmSource(earlier: readonly LimitDeclaration[], own: boolean): string {
  if (own) return "";
  for (let i = earlier.length - 1; i >= 0; i--) {
    const declaration = earlier[i] as LimitDeclaration;
    if (declaration.fields.algorithm !== undefined) return ` (from ${describeOrigin(declaration.origin)})`;
  }
  return "";
}

export function checkCalendar(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const declaration = chain[index] as LimitDeclaration;
  const earlier = chain.slice(0, index);
  const now = mergeLimitFields([...earlier, declaration].map((d) => d.fields));
  const { fields, path } = declaration;
  const errors: DocumentError[] = [];
  if (now.algorithm === undefined) return errors;
  const from = algorithmSource(earlier, fields.algorithm !== undefined);
  if (now.algorithm === "calendar") {
    if (fields.windowMs !== undefined) {
      const spelling = declaration.written.window !== undefined ? "window" : "windowMs";
      errors.push({
        path: `${path}.${spelling}`,
        message: `a calendar limit counts its period (day, week or month), not a window; remove ${spelling}`,
      });
    }
    if (fields.burst !== undefined)
      errors.push({ path: `${path}.burst`, message: "a calendar limit has no burst; remove burst" });
    if (now.period === undefined && index > 0 && fields.algorithm !== undefined)
      errors.push({
        path: `${path}.period`,
        message: "required with algorithm calendar (day, week or month)",
      });
    return errors;
  }
  for (const field of ["period", "timeZone"] as const) {
    if (fields[field] !== undefined)
      errors.push({
        path: `${path}.${field}`,
        message: `${field} applies only with algorithm calendar, and this limit's algorithm is ${now.algorithm}${from}`,
      });
  }
  return errors;
}
