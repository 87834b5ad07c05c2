// Which fault the fault soak injects in which minute: the tenant's primary killed at 10 s and
// restarted at 40 s (it comes back as a replica of the node that took over) in the second
// minute and again a third of the way further, and every core saturated for the minute
// between; the other minutes run undisturbed for comparison.
import type { ClusterGroup } from "../../../tests/reliability/cluster-topology";
import { saturateCpu } from "./cpu-hog";

export interface FaultStep {
  says: string;
  kills: boolean;
  run(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function killAndRestart(cluster: ClusterGroup): FaultStep {
  return {
    says: "tenant's primary killed at 10 s, restarted at 40 s",
    kills: true,
    async run() {
      await sleep(10_000);
      // the tenant's counters: the keys with a tenant hash tag
      const key = await cluster.anyKey("*{t:*");
      const victim = key ? await cluster.primaryOf(key) : null;
      if (!victim) throw new Error("no primary serves the tenant's slot");
      await victim.kill();
      await sleep(30_000);
      await victim.start();
    },
  };
}

export function faultPlan(minutes: number, cluster: ClusterGroup): Array<FaultStep | undefined> {
  const plan: Array<FaultStep | undefined> = Array.from({ length: minutes }, () => undefined);
  const first = 1;
  const second = Math.max(first + 3, Math.floor(minutes / 2) + 1);
  plan[first] = killAndRestart(cluster);
  plan[first + 2] = { says: "every core saturated for 60 s", kills: false, run: () => saturateCpu(60_000) };
  plan[second] = killAndRestart(cluster);
  return plan;
}
