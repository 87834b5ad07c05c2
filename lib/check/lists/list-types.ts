// Allow and deny lists as documents write them and versions publish them (a tenant's in its
// part, the operator's global list in the global part): entries as text, read into a
// ListMatcher (list-matcher.ts) once per version that changes them.

/** An allow entry: its text alone skips every limit; with `limits`, only those named. */
export type AllowEntry = string | { entry: string; limits: string[] };

export interface PublishedLists {
  /** checks whose subject matches are denied in memory, reason deny_list */
  deny: string[];
  allow: AllowEntry[];
}

/** The text of an allow entry. */
export const allowText = (entry: AllowEntry): string => (typeof entry === "string" ? entry : entry.entry);

/** The limits an allow entry skips, or null: all of them. */
export const allowLimits = (entry: AllowEntry): readonly string[] | null =>
  typeof entry === "string" ? null : entry.limits;

/** Whether there is anything to match (an empty list costs a check nothing). */
export const hasEntries = (lists: PublishedLists | undefined): lists is PublishedLists =>
  lists !== undefined && (lists.deny.length > 0 || lists.allow.length > 0);
