// Starts one Sluice server process for the bench, the built one `npm start` runs
// (.next/sluice/server.mjs), and waits until it answers a check. `cwd`: another worktree's
// build (BENCH_BASE_DIR, the A/B comparison of ab-base.ts); default this one.
import { freePort, startProcess, stopProcesses } from "./processes";

export interface App {
  url: string;
  /** its gRPC ShouldRateLimit port, "127.0.0.1:<port>" (docs/envoy.md) */
  grpc: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startApp(
  name: string,
  port: number,
  env: Record<string, string>,
  token: string,
  cwd?: string,
): Promise<App> {
  const url = `http://localhost:${port}`;
  const grpcPort = await freePort();
  const child = await startProcess(
    name,
    process.execPath,
    // The front's heap cap and GC flag as `npm start` gives them (scripts/start.sh); BENCH_APP_NODE_ARGS="--cpu-prof":
    // extra node flags for the app (profiling; a later --max-old-space-size wins).
    [
      `--max-old-space-size=${process.env.SLUICE_FRONT_HEAP_MB ?? 512}`,
      "--no-memory-reducer",
      ...(process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      "--enable-source-maps",
      ".next/sluice/server.mjs",
    ],
    { ...env, PORT: String(port), SLUICE_GRPC_PORT: String(grpcPort), SLUICE_LISTEN_HOST: "127.0.0.1" },
    async () => {
      const response = await fetch(`${url}/api/check`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ tenant: "bench", dryRun: true }),
      });
      return response.status === 200;
    },
    cwd,
  );
  return { url, grpc: `127.0.0.1:${grpcPort}`, pid: child.pid, stop: () => stopProcesses([child]) };
}

/**
 * The app, and the same server with usage recording off (what recording costs, side by
 * side), on fresh ports, started in turns by round. The bench starts them afresh every round:
 * two processes of one build were seen 20% apart for a whole run (JIT and scheduling luck),
 * which rounds on the same processes cannot average out.
 */
export async function startAppPair(
  round: number,
  env: Record<string, string>,
  token: string,
  cwd?: string,
): Promise<{ app: App; quiet: App }> {
  const startMain = async () => startApp("app", await freePort(), env, token, cwd);
  const startQuiet = async () =>
    startApp("app-no-usage", await freePort(), { ...env, SLUICE_USAGE_RECORDING: "off" }, token, cwd);
  if (round % 2 === 0) {
    const app = await startMain();
    return { app, quiet: await startQuiet() };
  }
  const quiet = await startQuiet();
  return { app: await startMain(), quiet };
}
