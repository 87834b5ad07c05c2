import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { writeAudit, type AuditInput } from "@/lib/control/data/audit";
import type { Tx } from "@/lib/control/data/tx";

// Account changes (invitations, passwords, disabling) are audited like config changes but
// make no config version: nothing in the compiled snapshot depends on them.

export type AccountAudit = (entry: AuditInput) => Promise<void>;

export async function runAccountChange<T>(
  principal: Principal,
  work: (tx: Tx, audit: AccountAudit) => Promise<T>,
): Promise<T> {
  return db().$transaction(async (tx) =>
    work(tx, (entry) => writeAudit(tx, { principal, requestId: null, configVersion: null }, entry)),
  );
}

/** Emails are compared and stored in one form: trimmed, lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
