// Starts one Sluice server process for the bench, the built one `npm start` runs
// (.next/sluice/server.mjs), and waits until it answers a check.
import { startProcess } from "./processes";

export async function startApp(
  name: string,
  port: number,
  env: Record<string, string>,
  token: string,
): Promise<{ url: string; pid: number | undefined }> {
  const url = `http://localhost:${port}`;
  const child = await startProcess(
    name,
    process.execPath,
    // BENCH_APP_NODE_ARGS="--cpu-prof": extra node flags for the app (profiling).
    [
      ...(process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      "--enable-source-maps",
      ".next/sluice/server.mjs",
    ],
    { ...env, PORT: String(port) },
    async () => {
      const response = await fetch(`${url}/api/check`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ tenant: "bench", dryRun: true }),
      });
      return response.status === 200;
    },
  );
  return { url, pid: child.pid };
}
