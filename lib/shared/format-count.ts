// Counts as the console shows them in words: whole numbers with thousands separators
// ("1,262 of 10,000"). A token bucket's level and a sliding window's estimate are
// fractional inside; a reader needs the units, not a tenth of one. Isomorphic.

/** 1262.4 -> "1,262"; 10000 -> "10,000"; not a number -> "—". */
export function formatWhole(value: number): string {
  if (!Number.isFinite(value)) return "—";
  // Math.round(-0.4) is -0, which toLocaleString prints as "-0"
  return (Math.round(value) || 0).toLocaleString("en-US");
}

/** "1,262 of 10,000": a used amount against its capacity. */
export function formatUsedOf(used: number, capacity: number): string {
  return `${formatWhole(used)} of ${formatWhole(capacity)}`;
}
