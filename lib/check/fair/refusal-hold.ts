import "server-only";
import type { HttpAnswer } from "@/lib/check/answer";

// A caller refused for its fair share is answered after a pause, not at once. The refusal
// says "retry after 1 s"; a flood that ignores it sends its next batch the moment the 429
// arrives, and each round trip (a 50 KB upload read, a request parsed, an answer written)
// costs the front and the machine's cores the very time the quiet callers need. Held for a
// quarter of a second, the same four loops make a few refusals a second instead of
// hundreds. A caller that honours Retry-After never notices. The holds are bounded, so a
// caller with many connections cannot make the front keep timers without end: past the
// bound, refusals are answered at once again.

const HOLD_MS = 250;
const MAX_HELD = 1_024;

let held = 0;

/** Answers `refusal`, held when it is the fair gate's (`fairRefusal`); any other at once. */
export function answerRefusal(
  respond: (answer: HttpAnswer) => void,
  refusal: HttpAnswer,
  fairRefusal: HttpAnswer,
): void {
  if (refusal !== fairRefusal || held >= MAX_HELD) {
    respond(refusal);
    return;
  }
  held++;
  setTimeout(() => {
    held--;
    respond(refusal);
  }, HOLD_MS).unref();
}
