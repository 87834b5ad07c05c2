import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { actionUser, SignedOutError } from "@/lib/control/auth/session";
import type { Principal } from "@/lib/shared/principal";
import {
  ConflictError,
  ForbiddenError,
  isDatabaseUnavailable,
  NotFoundError,
  ValidationFailed,
} from "@/lib/control/errors/errors";
import type { ActionResult } from "@/components/forms/action-result";

// The frame of every server action: parse the (only) fields it accepts with zod, re-read the
// session and role from the database, run the DAL call (which checks the tenant and role
// itself), and turn what went wrong into a result a form can show. Isolation failures look
// exactly like "not found".

function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_form";
    out[key] ??= issue.message;
  }
  return out;
}

export async function runAction<S extends z.ZodType, T>(
  schema: S,
  raw: unknown,
  work: (principal: Principal, input: z.output<S>) => Promise<T>,
  revalidate: string[] = [],
): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      message: "Some fields need fixing.",
      fieldErrors: fieldErrorsOf(parsed.error.issues),
    };
  try {
    const user = await actionUser();
    const data = await work(user, parsed.data);
    for (const path of revalidate) revalidatePath(path);
    return { ok: true, data };
  } catch (error) {
    return failure(error);
  }
}

export function failure(error: unknown): {
  ok: false;
  message: string;
  fieldErrors?: Record<string, string>;
  errors?: { path: string; message: string; line?: number; column?: number }[];
  status: number;
} {
  if (error instanceof SignedOutError) return { ok: false, status: 401, message: error.message };
  if (error instanceof NotFoundError) return { ok: false, status: 404, message: "Not found." };
  if (error instanceof ForbiddenError) return { ok: false, status: 403, message: error.message };
  if (error instanceof ConflictError)
    return {
      ok: false,
      status: 409,
      message: error.message,
      fieldErrors: error.path ? { [error.path]: error.message } : undefined,
    };
  if (error instanceof ValidationFailed)
    return {
      ok: false,
      status: 422,
      message: "The change was refused; nothing was saved.",
      errors: error.errors.map(({ path, message, line, column }) => ({ path, message, line, column })),
    };
  if (isDatabaseUnavailable(error)) {
    console.error("[dashboard] the database is unavailable:", error);
    return {
      ok: false,
      status: 503,
      message: "The database is unavailable; nothing was changed. Try again in a moment.",
    };
  }
  console.error("[dashboard] action failed", error);
  return { ok: false, status: 500, message: "Something went wrong; nothing was saved. Try again." };
}
