// One measured load phase (a warm-up second, then `seconds` of load) with the server's and
// Redis's CPU over it, and the same against an app with its decision outcomes in the note.
import { load } from "./load";
import { describe, outcomes } from "./app-metrics";
import type { App } from "./app-server";
import type { AppPhase } from "./ab-base";
import { cpuMicros } from "./cpu";
import type { Measured } from "./rounds";

export type LoadPhase = (
  name: string,
  url: string,
  bodies: string[],
  serverPid: number | undefined,
  rate?: number,
  connections?: number,
  seconds?: number,
  script?: string,
) => Promise<Measured>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function loadPhases(options: {
  token: string;
  redisPid: number | undefined;
  defaultSeconds: number;
  log: (text: string) => void;
}): { phase: LoadPhase; appPhaseOn: (target: () => App) => AppPhase } {
  const { token, redisPid, defaultSeconds, log } = options;
  const phase: LoadPhase = async (
    name,
    url,
    bodies,
    serverPid,
    rate,
    connections = 50,
    seconds = defaultSeconds,
    script,
  ) => {
    log(`${name}: warm-up 1 s, then ${seconds} s`);
    const common = {
      url,
      bodies,
      token,
      connections,
      ...(rate ? { rate } : {}),
      ...(script ? { script } : {}),
    };
    await load({ ...common, seconds: 1 });
    await sleep(300);
    const [server0, redis0] = [cpuMicros(serverPid), cpuMicros(redisPid)];
    const result = await load({ ...common, seconds });
    const [server1, redis1] = [cpuMicros(serverPid), cpuMicros(redisPid)];
    if (result.failures > 0) log(`${name}: ${result.failures} failed requests`);
    return { ...result, serverCpu: server1 - server0, redisCpu: redis1 - redis0, note: "", seconds };
  };
  const appPhaseOn =
    (target: () => App): AppPhase =>
    async (name, path, bodies, rate, connections, seconds, script) => {
      const { url, pid } = target();
      const before = await outcomes(url);
      const result = await phase(name, `${url}${path}`, bodies, pid, rate, connections, seconds, script);
      return { ...result, note: describe(before, await outcomes(url)) };
    };
  return { phase, appPhaseOn };
}
