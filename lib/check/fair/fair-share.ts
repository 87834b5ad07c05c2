import "server-only";
import { FairGate } from "@/lib/check/fair/fair-gate";
import { overShareAnswer } from "@/lib/check/fair/fair-owner";
import type { HttpAnswer } from "@/lib/check/answer";
import { ServiceLimits } from "@/lib/check/fair/service-limits";

// The gate's proportions from its one size setting. A quarter of the window is kept for
// owners other than the busiest; a turn starts at most 32 checks (a batch chunk: two script
// calls of the micro-batcher), which is what a quiet caller may wait behind per busy owner.

const QUANTUM = 32;

export interface FairShare {
  gate: FairGate;
  /** the gate's refusal, made once */
  refused: HttpAnswer;
  service: ServiceLimits;
}

export function fairShare(window: number, maxQueued: number): FairShare {
  const reserve = Math.max(QUANTUM, Math.floor(window / 4));
  const gate = new FairGate({ window, reserve, quantum: QUANTUM, maxQueued });
  return { gate, refused: overShareAnswer(maxQueued), service: new ServiceLimits() };
}
