import { z } from "zod";

// Text PostgreSQL cannot store (NUL) or that is not text at all (a lone UTF-16 surrogate,
// which JSON can carry as "\ud800") is refused at the boundary with a message naming the
// field, instead of failing in the database as a 500. In a `u` regular expression a
// well-formed surrogate pair is one code point, so \p{Cs} matches only a lone surrogate.

const UNSAFE = /[\0\p{Cs}]/u;

export const SAFE_TEXT_RULE = "must not contain NUL characters or unpaired surrogates";

export function isSafeText(text: string): boolean {
  return !UNSAFE.test(text);
}

/** Any zod string of user text, refusing NUL and lone surrogates (with the field's path). */
export function safeText<T extends z.ZodType<string>>(schema: T): T {
  return schema.refine(isSafeText, { error: SAFE_TEXT_RULE });
}
