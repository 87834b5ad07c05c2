import "server-only";
import {
  metricsSink,
  type DecisionContext,
  type DecisionSink,
  type LeaseRelease,
} from "@/lib/check/decision-sink";
import type { UsageRecorder } from "@/lib/usage/record/recorder";
import type { UsageEvent } from "@/lib/usage/types";

// Plugs the recorder into /api/check's decision sink, keeping the Prometheus metrics. Dry
// runs change nothing, so they are not traffic; decisions without a known tenant have no
// one to count them for. `subject` is read when the check pipeline passes it along. Uses of
// keys and service tokens are noted for their "last used" (at most once a minute each);
// leases released in time are counted (those taken come with their check's decision).

export function usageSink(recorder: UsageRecorder, next: DecisionSink = metricsSink): DecisionSink {
  return {
    record(decision: DecisionContext & { subject?: string | null }) {
      next.record(decision);
      // a dry run is still a use of the key, though not traffic
      if (decision.keyId !== null) recorder.used("key", decision.keyId);
      if (decision.dryRun || decision.tenantId === null) return;
      // the decision itself is the usage event (its fields are a superset): no copy per check
      recorder.record(decision as UsageEvent);
    },
    tokenUsed(tokenId: string) {
      recorder.used("token", tokenId);
    },
    leaseReleased(release: LeaseRelease) {
      recorder.leaseReleased(release);
    },
  };
}
