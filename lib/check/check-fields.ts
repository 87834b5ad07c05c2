import { NAME_PATTERN } from "@/lib/shared/config-terms";
import { isSafeText } from "@/lib/shared/safe-text";

// The check body's fields read without zod, for bodies that are valid: the same rules as
// checkSchema (body-schema.ts), checked by hand, so a valid check costs a few property reads
// and two regular expressions instead of a schema walk that builds a new object. Anything
// else (a wrong type, an unknown field, a value out of range) returns null and goes through
// checkSchema, which names the field. The two are held equal by a test over random bodies
// (tests/unit/enforce/check-fields.test.ts).

export interface CheckFields {
  apiKey?: string;
  tenant?: string;
  key?: string;
  route?: string;
  subject?: string;
  cost?: number;
  dryRun?: boolean;
  adjustable?: boolean;
}

const ROUTE_SHAPE = /^[A-Za-z]{1,16} \/\S*$/;

function okName(value: unknown): boolean {
  return typeof value === "string" && NAME_PATTERN.test(value);
}

function okField(name: string, value: unknown, maxCost: number): boolean {
  switch (name) {
    case "apiKey":
      return typeof value === "string" && value.length >= 1 && value.length <= 512;
    case "tenant":
    case "key":
      return okName(value);
    case "route":
      return (
        typeof value === "string" && value.length <= 2048 && ROUTE_SHAPE.test(value) && isSafeText(value)
      );
    case "subject":
      return typeof value === "string" && value.length >= 1 && value.length <= 256 && isSafeText(value);
    case "cost":
      return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= maxCost;
    case "dryRun":
    case "adjustable":
      return typeof value === "boolean";
    default:
      return false;
  }
}

/** The body's fields when every one is valid (checkSchema would accept it as it is), else null. */
export function validFields(input: unknown, maxCost: number): CheckFields | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  // only a plain object: JSON's, or one a caller built as a literal
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return null;
  const fields = input as Record<string, unknown>;
  for (const name in fields) {
    if (!Object.hasOwn(fields, name)) return null;
    const value = fields[name];
    // an optional field given as undefined is absent (JSON never gives one)
    if (value !== undefined && !okField(name, value, maxCost)) return null;
  }
  return fields as CheckFields;
}
