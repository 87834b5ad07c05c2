// The soak's CPU fault: one busy process per core, for a while, beside the server (what a
// noisy neighbour or a runaway job on the same machine does to the check front).
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";

const BUSY = "const end = Date.now() + Number(process.argv[1]); while (Date.now() < end) {}";

/** Saturates every core for `ms`; resolves when the busy processes have ended. */
export async function saturateCpu(ms: number): Promise<void> {
  const children: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", BUSY, String(ms)], { stdio: "ignore" }),
  );
  await Promise.all(
    children.map((child) => new Promise<void>((resolve) => child.once("exit", () => resolve()))),
  );
}
