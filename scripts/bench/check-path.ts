// The check pipeline's own CPU per check, in process: CheckService.decide from the input to
// the rendered answer, with a store that answers at once (every limit allows, or every limit
// denies), so neither HTTP nor Redis nor the other processes on this shared machine are in
// the figure. An A/B tool for check-path changes: run it in two worktrees (the same fixture,
// shape-fixture.ts) and compare µs per check. `node --import tsx scripts/bench/check-path.ts [checks]`.
//   identical: one apiKey, route and subject over and over
//   deny:      the same, every limit denying (the deny cache answers after the first)
//   pen-allow: the identical check, its limits carrying a penalty, every limit allowing
//   penalty:   the same, blocked by a penalty (the blocks answer from memory after the first)
//   mix:       2 keys, 1,000 route ids, 100,000 subjects, by Zipf (s = 1)
//   spread:    the bench's (s2): 100 apiKeys in turn, 1,000 route ids and 100,000 subjects uniformly
//   realistic: the bench's mix (m) on its own configuration (realistic-index.ts): 1,000 keys
//              of 10 tenants, 50 route patterns x 1,000 ids and 100,000 subjects, by Zipf
//   one:       one check of that mix repeated, the bench's (mi)
import { createHash } from "node:crypto";

await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { CheckService } = await import("@/lib/check/check-service");
const { buildIndex } = await import("@/lib/check/config-state");
const { shapeSnapshot } = await import("../../tests/unit/enforce/shape-fixture");
const { realisticIndex } = await import("./realistic-index");
import type { ConfigIndex } from "@/lib/check/config-index";
import type { CheckInput } from "@/lib/check/types";
import { ROUTE_IDS, ROUTE_PATTERNS } from "./realistic-config";
import { zipf } from "./zipf";
import { fixedHolder, instantStore } from "./instant-store";

const CHECKS = Number(process.argv[2] ?? 300_000);
const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
const snapshot = shapeSnapshot("T1");
const key = (name: string) => ({ tenant: "acme", name, revoked: false, expiresAt: null });
const published = {
  version: 1,
  snapshot,
  keys: {
    [sha("sk_backend")]: key("backend"),
    [sha("sk_mobile")]: key("mobile"),
    // 100 more apiKeys of the same two keys: distinct raw values, as distinct callers send
    ...Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [sha(`sk_spread${i}`), key(i % 2 ? "backend" : "mobile")]),
    ),
  },
  serviceTokens: {},
};
const index = buildIndex(published);
const base: CheckInput = {
  apiKey: "sk_backend",
  tenant: null,
  key: null,
  route: "GET /items/1",
  subject: "alice",
  cost: 1,
  dryRun: false,
};
const [idOf, subjectOf] = [zipf(1_000), zipf(100_000)];
const mixInputs: CheckInput[] = Array.from({ length: 200_000 }, (_, i) => ({
  ...base,
  apiKey: i % 3 === 0 ? "sk_mobile" : "sk_backend",
  route: `GET /items/${idOf()}`,
  subject: `u${subjectOf()}`,
}));

// the same snapshot with a penalty on every limit that may carry one (docs/algorithms.md)
function withPenalties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPenalties);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) out[name] = withPenalties(inner);
  const rule = out.rule as { algorithm?: string } | undefined;
  if (rule?.algorithm !== undefined && rule.algorithm !== "sliding_log")
    out.rule = { ...rule, penalty: { blockMs: 60_000, grow: 1, maxMs: 60_000, windowMs: 0 } };
  return out;
}
const penaltyIndex = buildIndex({ ...published, snapshot: withPenalties(snapshot) as typeof snapshot });

const uniform = (n: number): number => 1 + Math.floor(Math.random() * n);
const spreadInputs: CheckInput[] = Array.from({ length: 200_000 }, (_, i) => ({
  ...base,
  apiKey: `sk_spread${i % 100}`,
  route: `GET /items/${uniform(1_000)}`,
  subject: `u${uniform(100_000)}`,
}));

const realistic = realisticIndex();
const [keyRank, patternIdRank] = [zipf(realistic.apiKeys.length), zipf(ROUTE_IDS)];
// Built per check, as the server parses them: fresh strings whose hashes no lookup has
// cached yet, in memory the CPU has just written (400,000 inputs built ahead were read
// cold from memory, a cost the server does not pay).
const realisticDraws = Int32Array.from({ length: 3 * 400_000 }, (_, i) =>
  i % 3 === 0
    ? keyRank() - 1
    : i % 3 === 1
      ? Math.floor(Math.random() * ROUTE_PATTERNS) * 10_000 + patternIdRank()
      : subjectOf(),
);
const apiKeyOf = (rank: number): string => `sk_realistic_${rank % 10}_${Math.floor(rank / 10)}`;
if (realistic.apiKeys.some((apiKey, rank) => apiKey !== apiKeyOf(rank)))
  throw new Error("realistic-index's apiKeys changed");
const realisticInput = (i: number): CheckInput => {
  const at = 3 * (i % 400_000);
  const [k, route, subject] = [
    realisticDraws[at] as number,
    realisticDraws[at + 1] as number,
    realisticDraws[at + 2] as number,
  ];
  return {
    ...base,
    apiKey: apiKeyOf(k),
    route: `GET /v1/res${Math.floor(route / 10_000)}/${route % 10_000}`,
    subject: `u${subject}`,
  };
};
const oneInput: CheckInput = {
  ...base,
  apiKey: realistic.apiKeys[0] as string,
  route: "GET /v1/res3/1",
  subject: "u1",
};

// CHECK_PATH_CASES=realistic,spread: only those (an A/B of one case runs it more often)
const cases = process.env.CHECK_PATH_CASES?.split(",") ?? null;

function run(
  name: string,
  status: 0 | 1 | 3,
  inputs: readonly CheckInput[] | ((i: number) => CheckInput),
  current: ConfigIndex = index,
): void {
  if (cases !== null && !cases.includes(name)) return;
  const service = new CheckService(fixedHolder(current), instantStore(status));
  const caller = { id: "bench", tenants: null };
  const input =
    typeof inputs === "function" ? inputs : (i: number) => inputs[i % inputs.length] as CheckInput;
  let answered = 0;
  const done = () => void answered++;
  // warm-up: the JIT, and the caches of a steady state
  for (let i = 0; i < 50_000; i++) service.decide(input(i), caller, done);
  const started = process.cpuUsage();
  for (let i = 0; i < CHECKS; i++) service.decide(input(i), caller, done);
  const used = process.cpuUsage(started);
  const micros = (used.user + used.system) / CHECKS;
  console.log(`${name.padEnd(10)} ${micros.toFixed(2)} µs/check (${answered} answered)`);
}

for (let round = 0; round < 3; round++) {
  run("identical", 1, [base]);
  run("deny", 0, [base]);
  run("pen-allow", 1, [base], penaltyIndex);
  run("penalty", 3, [base], penaltyIndex);
  run("mix", 1, mixInputs);
  run("spread", 1, spreadInputs);
  run("realistic", 1, realisticInput, realistic.index);
  run("one", 1, [oneInput], realistic.index);
}
