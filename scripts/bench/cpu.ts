// CPU time of a process (user + system) from /proc, to print each phase's server and Redis
// cost per check beside its throughput: on a machine where load generator, server and Redis
// share two cores, these say which of them sets the limit.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const text = execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim();
    ticksPerSecond = Number(text) > 0 ? Number(text) : 100;
  }
  return ticksPerSecond;
}

/** CPU microseconds the process has used so far (NaN when it cannot be read). */
export function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
    return (ticks * 1e6) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU microseconds of this process's children that have ended (cutime + cstime): taken
 * around one wrk run, the load generator's own cost, which shares the cores with the rest.
 */
export function endedChildrenCpuMicros(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1e6) / clockTicks();
}
