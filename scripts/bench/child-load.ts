// A load sent from its own process (phases (h) and (n)): building and sending its bodies
// here would take turns with autocannon on this event loop and skew the very latencies
// measured. The script runs until SIGTERM, then waits for what it has in flight and prints
// what it sent and how it was answered.
import { spawn } from "node:child_process";
import { once } from "node:events";

export interface ChildLoad {
  /** stops sending, waits for what is in flight, and describes what was sent */
  stop(): Promise<string>;
}

export function startChildLoad(script: string, args: readonly string[]): ChildLoad {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    async stop() {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
      return output.trim();
    },
  };
}
