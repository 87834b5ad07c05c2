import "server-only";
import type { z } from "zod";
import { NotFoundError } from "@/lib/control/errors/errors";
import { failure } from "@/app/(dashboard)/_lib/run-action";
import type { ActionError } from "@/components/forms/action-result";

// One-time link pages say why a link failed (used, expired...): the link itself is the
// secret, so its holder learns nothing they could not learn by opening it. Whether an
// email has an account is never among the reasons (lib/data/invitations.ts).

export function linkFailure(error: unknown): ActionError {
  if (error instanceof NotFoundError) return { ok: false, status: 404, message: error.message };
  return failure(error);
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.path.map(String).join(".") || "_form"] ??= issue.message;
  return out;
}
