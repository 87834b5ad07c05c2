import "server-only";
import { metricsSink, type DecisionContext, type DecisionSink } from "@/lib/enforce/decision-sink";
import type { UsageRecorder } from "@/lib/usage/recorder";

// Plugs the recorder into /api/check's decision sink, keeping the Prometheus metrics. Dry
// runs change nothing, so they are not traffic; decisions without a known tenant have no
// one to count them for. `subject` is read when the check pipeline passes it along.

export function usageSink(recorder: UsageRecorder, next: DecisionSink = metricsSink): DecisionSink {
  return {
    record(decision: DecisionContext & { subject?: string | null }) {
      next.record(decision);
      if (decision.dryRun || decision.tenantId === null) return;
      recorder.record({
        tenantId: decision.tenantId,
        keyId: decision.keyId,
        route: decision.route,
        outcome: decision.outcome,
        subject: decision.subject ?? null,
      });
    },
  };
}
