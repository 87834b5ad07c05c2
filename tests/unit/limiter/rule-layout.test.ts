import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codecFor } from "@/lib/check/limiter/algorithms";
import { luaDir } from "@/lib/shared/redis/lua-files";
import { ALGORITHM_CODES, RULE_SLOTS } from "@/lib/check/limiter/rule-layout";
import { ALGORITHMS } from "@/lib/shared/limit-types";
import { rule } from "./rules";

// The rule's layout is written twice, in lib/check/limiter/rule-layout.ts (what is sent) and in
// lua/run-check.lua (what is read): the slots' names and numbers, the count of ARGV values
// per rule and the algorithm codes must agree.

const lua = (name: string): string => readFileSync(join(luaDir(), name), "utf8");

/** `local A, B = 1, 2` of run-check.lua as { A: 1, B: 2 } (numbers and quoted strings). */
function locals(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, names = "", values = ""] of text.matchAll(/^local ([A-Z_, ]+) = ([^\n]+)$/gm)) {
    const n = names.split(",").map((s) => s.trim());
    const v = values.split(",").map((s) => s.trim());
    n.forEach((name, i) => out.set(name, v[i] ?? ""));
  }
  return out;
}

describe("the rule layout", () => {
  const constants = locals(lua("run-check.lua"));

  it("names each sent slot with its number in run-check.lua", () => {
    RULE_SLOTS.forEach((slot, i) => expect(constants.get(`R_${slot}`), slot).toBe(String(i + 1)));
    expect(constants.get("RULE_ARGS")).toBe(String(RULE_SLOTS.length));
    expect(constants.get("SLIDING_LOG_CODE")).toBe(`'${ALGORITHM_CODES.sliding_log}'`);
    expect(constants.get("CONCURRENCY_CODE")).toBe(`'${ALGORITHM_CODES.concurrency}'`);
  });

  it("registers each algorithm under its code", () => {
    const registered = new Set<string>();
    for (const file of [
      "fixed-window",
      "sliding-log",
      "sliding-window",
      "buckets",
      "concurrency",
      "calendar",
    ])
      for (const [, code = ""] of lua(`algorithms/${file}.lua`).matchAll(/^ALG\[(\d+)\] =/gm))
        registered.add(code);
    expect([...registered].sort()).toEqual(Object.values(ALGORITHM_CODES).map(String).sort());
  });

  it("builds each algorithm's values in slot order", () => {
    for (const algorithm of ALGORITHMS) {
      const args = codecFor(algorithm).args(rule(algorithm, 10, 1000, { mode: "shadow" }));
      expect(args.length).toBe(RULE_SLOTS.length - 1);
      expect(args[RULE_SLOTS.indexOf("ALG")]).toBe(ALGORITHM_CODES[algorithm]);
      expect(args[RULE_SLOTS.indexOf("SHADOW")]).toBe(1);
      expect(args[RULE_SLOTS.indexOf("MAX_DELAY")]).toBe(-1);
    }
  });
});
