// Text made once and copied into many answers is kept as ONE flat string: V8 keeps `a + b`
// as a tree of its parts (a rope), and every copy of a tree into a socket walks all its
// leaves, which under varied traffic was the front's costliest step (docs/architecture.md).

/** The same text as one flat string (answers are ASCII, which the round trip keeps as is). */
export function flatText(text: string): string {
  return text.length < 2 ? text : Buffer.from(text, "utf8").toString("utf8");
}

/**
 * The one shared flat copy of a text: templates of many shapes hold the same pieces, and
 * fewer distinct copies leave more of them in the CPU's caches. Bounded: past SHARED_MAX
 * texts the table starts again (the texts stay valid where they are held).
 */
export function sharedText(text: string): string {
  let flat = shared.get(text);
  if (flat === undefined) {
    if (shared.size >= SHARED_MAX) shared.clear();
    flat = flatText(text);
    shared.set(flat, flat);
  }
  return flat;
}

const SHARED_MAX = 50_000;
const shared = new Map<string, string>();
