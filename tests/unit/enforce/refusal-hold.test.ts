import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { answerRefusal } from "@/lib/check/fair/refusal-hold";
import { errorAnswer, type HttpAnswer } from "@/lib/check/answer";

// Fair-share refusals are answered after a quarter of a second, at most 1,024 held at once;
// any other refusal (a service limit's, whose Retry-After is exact) is answered at once.

const fair = errorAnswer(429, "over_fair_share", "full");
const service = errorAnswer(429, "over_service_limit", "spent");

describe("refusal hold", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("holds the fair gate's refusal 250 ms and answers others at once", () => {
    const answered: HttpAnswer[] = [];
    answerRefusal((a) => answered.push(a), fair, fair);
    answerRefusal((a) => answered.push(a), service, fair);
    expect(answered).toEqual([service]);
    vi.advanceTimersByTime(249);
    expect(answered).toEqual([service]);
    vi.advanceTimersByTime(1);
    expect(answered).toEqual([service, fair]);
  });

  it("holds at most 1,024 at once: past that a refusal is answered at once", () => {
    let answered = 0;
    for (let i = 0; i < 1_030; i++) answerRefusal(() => answered++, fair, fair);
    expect(answered).toBe(6);
    vi.advanceTimersByTime(250);
    expect(answered).toBe(1_030);
    // the holds are free again
    answerRefusal(() => answered++, fair, fair);
    expect(answered).toBe(1_030);
    vi.advanceTimersByTime(250);
    expect(answered).toBe(1_031);
  });
});
