// The realistic mix's check-many calls as the front sends them, for lua-calls.ts:
// checks drawn like wrk's mix (realistic-mix.ts), run through the real check pipeline
// (CheckService on the mix's configuration compiled in process, realistic-index.ts) with a
// store that keeps what it is asked (instant-store.ts), then grouped and encoded by the limiter's own
// buildManyCall. So the calls carry the keys, rules and checks string the server would send.
import type { CheckService as CheckServiceType } from "@/lib/check/check-service";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import type { ScriptCall } from "@/lib/check/limiter/evaluate";
import type { CheckInput } from "@/lib/check/types";
import { ROUTE_IDS, ROUTE_PATTERNS, SUBJECTS } from "./realistic-config";
import { zipf } from "./zipf";
import { fixedHolder, instantStore } from "./instant-store";

await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { CheckService } = await import("@/lib/check/check-service");
const { buildManyCall } = await import("@/lib/check/limiter/evaluate-many");
const { realisticIndex } = await import("./realistic-index");

export interface RealisticCalls {
  calls: ScriptCall[];
  checks: number;
  /** limits per check and keys per call, on average */
  limitsPerCheck: number;
  keysPerCall: number;
}

/** `checks` checks of the mix in calls of `perCall` (the bench's mix averaged 11 a call). */
export function realisticCalls(checks: number, perCall: number): RealisticCalls {
  const realistic = realisticIndex();
  const prepared: PreparedCheck[] = [];
  const service: CheckServiceType = new CheckService(
    fixedHolder(realistic.index),
    instantStore(1, (p) => prepared.push(p)),
  );
  const [keyRank, idRank, subjectRank] = [zipf(realistic.apiKeys.length), zipf(ROUTE_IDS), zipf(SUBJECTS)];
  const caller = { id: "bench", tenants: null };
  for (let i = 0; i < checks; i++) {
    const input: CheckInput = {
      apiKey: realistic.apiKeys[keyRank() - 1] as string,
      tenant: null,
      key: null,
      route: `GET /v1/res${Math.floor(Math.random() * ROUTE_PATTERNS)}/${idRank()}`,
      subject: `u${subjectRank()}`,
      cost: 1,
      dryRun: false,
    };
    service.decide(input, caller, () => undefined);
  }
  const calls: ScriptCall[] = [];
  for (let i = 0; i < prepared.length; i += perCall)
    calls.push(buildManyCall(prepared.slice(i, i + perCall)));
  const limits = prepared.reduce((sum, p) => sum + p.keys.length, 0);
  const keys = calls.reduce((sum, call) => sum + call.keys.length, 0);
  return {
    calls,
    checks: prepared.length,
    limitsPerCheck: limits / prepared.length,
    keysPerCall: keys / calls.length,
  };
}
