// A load process for the concurrency tests: node --import tsx hammer.ts '<json>'.
// Waits until startAt (so all processes overlap), then has every check in flight at once on
// its own connection, and prints {"admitted": [per check set], "errors": n}.
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { connect } from "./redis";

interface Job {
  startAt: number;
  /** check sets to cycle through: check i uses sets[i % sets.length] */
  sets: LimitSpec[][];
  count: number;
}

const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const redis = connect();
const admitted = job.sets.map(() => 0);
let errors = 0;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - Date.now())));
await Promise.all(
  Array.from({ length: job.count }, async (_, i) => {
    const set = i % job.sets.length;
    try {
      const decision = await evaluate(redis, job.sets[set] ?? [], { cost: 1, dryRun: false });
      if (decision.allowed) admitted[set] = (admitted[set] ?? 0) + 1;
    } catch (error) {
      errors++;
      console.error(String(error));
    }
  }),
);
console.log(JSON.stringify({ admitted, errors }));
await redis.quit();
