import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { alertSettings } from "@/lib/control/alerts/settings";
import { deliverDue } from "@/lib/control/alerts/delivery-worker";
import { evaluateOnce } from "@/lib/control/alerts/evaluator";
import { pruneAlertHistory } from "@/lib/control/data/alerts/engine";
import { redis } from "@/lib/shared/redis/redis";
import { startPeriodicTask } from "@/lib/shared/periodic-task";
import { RollupLease } from "@/lib/usage/lease";
import { rowContext } from "@/lib/usage/read/context";
import { globalSlot } from "@/lib/shared/global-singleton";

// Started in the app process (server-app.ts), off the check path. Every server runs the
// loop; only the lease holder evaluates (the same lease scheme as the usage rollup, keys of
// its own), so rules are read once per interval. Deliveries are claimed row by row in
// PostgreSQL, so every server may send them. Even two evaluators at once queue one message
// per change (engine.ts).

const HISTORY_MS = 30 * 86_400_000;

export interface AlertJobs {
  stop(): Promise<void>;
}

const running = globalSlot<AlertJobs>("sluiceAlertJobs");

export function alertLeaseKeys(ns: string): { lease: string; fence: string } {
  return { lease: `${ns}{a:job}:lease`, fence: `${ns}{a:job}:fence` };
}

export function startAlertJobs(): AlertJobs {
  const started = running.peek();
  if (started) return started;
  const settings = alertSettings();
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  const lease = new RollupLease(
    redis(),
    alertLeaseKeys(settings.ns),
    owner,
    Math.max(10_000, settings.evalEveryMs * 3),
  );
  const evaluate = startPeriodicTask("alert evaluation", settings.evalEveryMs, async () => {
    if (await lease.acquire()) {
      const { errors } = await evaluateOnce(rowContext());
      if (errors.length > 0) throw new Error(errors.slice(0, 3).join("; "));
    }
  });
  // The delivery log keeps 30 days; pruned hourly by the lease holder.
  const prune = startPeriodicTask("alert history", 3_600_000, async () => {
    if (await lease.held()) await pruneAlertHistory(HISTORY_MS);
  });
  const send = startPeriodicTask("alert delivery", Math.min(settings.evalEveryMs, 5_000), () =>
    deliverDue(settings),
  );
  const jobs: AlertJobs = {
    async stop() {
      evaluate.stop();
      send.stop();
      prune.stop();
      await lease.release().catch(() => undefined);
      running.set(undefined);
    },
  };
  running.set(jobs);
  return jobs;
}
