import "server-only";
import { z } from "zod";
import { safeText } from "@/lib/shared/safe-text";

// What a new password must be (set by its owner only: at an invitation, a reset link or a
// change). Long enough to resist guessing; bounded so scrypt's input stays small.
export const NewPassword = z
  .string({ error: "must be text" })
  .min(12, { error: "must be at least 12 characters" })
  .max(256, { error: "must be at most 256 characters" });

export const DisplayName = safeText(
  z
    .string({ error: "must be text" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(100, { error: "must be at most 100 characters" }),
);

/** The secret of a one-time link as it appears in the URL (kind prefix + 32 base64url). */
export const LinkSecret = z.string().regex(/^(inv|rst)_[A-Za-z0-9_-]{32}$/, { error: "is not a valid link" });
