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
