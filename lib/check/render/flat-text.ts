// Text made once and copied into many answers is kept as ONE flat string. V8 represents
// `a + b` and a template literal as a tree of their parts (a rope), and every copy of such a
// tree into a socket walks all its leaves; an answer template is built from a dozen parts
// per limit, and under varied traffic (thousands of templates, few of them in the CPU's
// caches) walking them was the front's costliest step: 5.4 µs per check under the bench's
// mix against 1.4 with one check repeated (perf, String::WriteToFlat).

/** The same text as one flat string (answers are ASCII, which the round trip keeps as is). */
export function flatText(text: string): string {
  return text.length < 2 ? text : Buffer.from(text, "utf8").toString("utf8");
}

/**
 * The one shared flat copy of a text: answer templates of many shapes hold the same pieces
 * (a tenant's limit appears in every shape of the tenant, a route in every key's), and
 * under varied traffic an answer is copied from templates the CPU's caches do not hold, so
 * fewer distinct copies leave more of them cached (issue 20). Bounded: past SHARED_MAX
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
