import { z } from "zod";
import { NAME_PATTERN } from "@/lib/shared/config-terms";
import type { CheckInput } from "@/lib/check/types";
import { isSafeText, SAFE_TEXT_RULE } from "@/lib/shared/safe-text";
import { validFields, type CheckFields } from "@/lib/check/check-fields";

// The check body of docs/api.md, validated at the boundary. Unknown fields are refused: a typo
// such as "cots" silently falling back to cost 1 is worse for a rate limiter than a 400.
// Every error names its field, so callers can fix requests without reading this file.

export const MAX_COST = 1_000_000;
export const MAX_BATCH = 1_000;

const slug = (what: string) =>
  z
    .string({ error: `must be a ${what} name (a string)` })
    .regex(NAME_PATTERN, { error: `must be a ${what} name: 1-63 of a-z, 0-9 and -` });

/** Exported for the OpenAPI document (lib/openapi), which describes exactly what is validated. */
export const checkSchema = z.strictObject(
  {
    apiKey: z
      .string({ error: "must be a string (a tenant API key)" })
      .min(1, { error: "must not be empty" })
      .max(512, { error: "must be at most 512 characters" })
      .optional(),
    tenant: slug("tenant").optional(),
    key: slug("key").optional(),
    route: z
      .string({ error: 'must be a string like "GET /v1/items/42"' })
      .max(2048, { error: "must be at most 2048 characters" })
      .regex(/^[A-Za-z]{1,16} \/\S*$/, { error: 'must be "METHOD /path", like "GET /v1/items/42"' })
      .refine(isSafeText, { error: SAFE_TEXT_RULE })
      .optional(),
    subject: z
      .string({ error: "must be a string" })
      .min(1, { error: "must be 1..256 characters" })
      .max(256, { error: "must be 1..256 characters" })
      .refine(isSafeText, { error: SAFE_TEXT_RULE })
      .optional(),
    cost: z
      .number({ error: `must be an integer 1..${MAX_COST}` })
      .int({ error: `must be an integer 1..${MAX_COST}` })
      .min(1, { error: `must be an integer 1..${MAX_COST}` })
      .max(MAX_COST, { error: `must be an integer 1..${MAX_COST}` })
      .optional(),
    dryRun: z.boolean({ error: "must be true or false" }).optional(),
    adjustable: z.boolean({ error: "must be true or false" }).optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? "is not a field of a check" : "must be a JSON object",
  },
);

export interface FieldError {
  message: string;
  /** the field, e.g. "cost" or "checks[3].cost"; "" for the body itself */
  path: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: FieldError };

function pathOf(prefix: string, parts: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of parts) {
    out += typeof part === "number" ? `[${part}]` : out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function firstIssue(error: z.ZodError, prefix: string): FieldError {
  const issue = error.issues[0];
  if (!issue) return { message: "is not a valid check", path: prefix };
  // An unknown field is reported at its own name, not at the object holding it.
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const path = pathOf(prefix, keys.length > 0 ? [...issue.path, keys[0] ?? ""] : issue.path);
  return { message: issue.message, path };
}

/** Validates one check; `prefix` places errors inside a batch ("checks[3]"). */
export function parseCheck(input: unknown, prefix = ""): Parsed<CheckInput> {
  // a valid body (nearly every one) is read as it is; the schema names what is wrong
  const fields = validFields(input, MAX_COST);
  if (fields !== null) return checkOf(fields, prefix);
  const result = checkSchema.safeParse(input);
  if (!result.success) return { ok: false, error: firstIssue(result.error, prefix) };
  return checkOf(result.data, prefix);
}

/** The rules between fields, then the check with its defaults. */
function checkOf(body: CheckFields, prefix: string): Parsed<CheckInput> {
  if (body.apiKey !== undefined && body.tenant !== undefined) {
    return {
      ok: false,
      error: { path: pathOf(prefix, ["tenant"]), message: "give either apiKey or tenant, not both" },
    };
  }
  if (body.apiKey === undefined && body.tenant === undefined) {
    return {
      ok: false,
      error: { path: pathOf(prefix, ["apiKey"]), message: "give apiKey, or tenant (and optionally key)" },
    };
  }
  if (body.key !== undefined && body.tenant === undefined) {
    return {
      ok: false,
      error: {
        path: pathOf(prefix, ["key"]),
        message: "key names a key of tenant; with apiKey leave it out",
      },
    };
  }
  return {
    ok: true,
    value: {
      apiKey: body.apiKey ?? null,
      tenant: body.tenant ?? null,
      key: body.key ?? null,
      route: body.route ?? null,
      subject: body.subject ?? null,
      cost: body.cost ?? 1,
      dryRun: body.dryRun ?? false,
      ...(body.adjustable === true ? { adjustable: true } : {}),
    },
  };
}

export const batchSchema = z.strictObject(
  {
    checks: z
      .array(z.unknown(), { error: "must be an array of checks" })
      .min(1, { error: `must hold 1..${MAX_BATCH} checks` })
      .max(MAX_BATCH, { error: `must hold 1..${MAX_BATCH} checks` }),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? "is not a field of a batch" : "must be a JSON object",
  },
);

/** The batch envelope only: each check is validated on its own (its error is its own). */
export function parseBatch(input: unknown): Parsed<unknown[]> {
  const result = batchSchema.safeParse(input);
  if (!result.success) return { ok: false, error: firstIssue(result.error, "") };
  return { ok: true, value: result.data.checks };
}
