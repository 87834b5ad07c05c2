import "server-only";
import type { Check, LimitArgs } from "@/lib/check/limiter/types";
import { specArgs } from "@/lib/check/limiter/spec-args";
import { validate, type ScriptCall } from "@/lib/check/limiter/evaluate";
import { nowOverride, type EvaluateOptions } from "@/lib/check/limiter/clock";
import { newLeaseId, takesLease } from "@/lib/check/limiter/lease-id";

// Several checks of one tenant in ONE script call (lua/check-many.lua), decided in order,
// each all-or-nothing on its own exactly as evaluate() decides it alone. One call instead of
// one per check saves the per-command cost of the client and of Redis (EVALSHA set-up, reply).

/** A check ready to send: its keys and its limits' six integers, validated. */
export interface PreparedCheck {
  check: Check;
  keys: string[];
  /** per limit, its script arguments (one array per limit, shared by checks: spec-args.ts) */
  rules: LimitArgs[];
}

/**
 * Validates one check (throws RangeError as evaluate() would) and lays out its parts;
 * `nowMs` places calendar limits in their period (default: the wall clock).
 */
export function prepareCheck(check: Check, nowMs?: number): PreparedCheck {
  const keys = validate(check.limits, check.request);
  const rules = check.limits.map((spec) => specArgs(spec, nowMs));
  if (check.request.lease === undefined && takesLease(check.limits))
    check = { ...check, request: { ...check.request, lease: newLeaseId() } };
  return { check, keys, rules };
}

/** lua/check.lua's ARGV for one prepared check. */
export function singleArgs(prepared: PreparedCheck, options?: EvaluateOptions): Array<number | string> {
  const { request } = prepared.check;
  const args: Array<number | string> = [request.cost, request.dryRun ? 1 : 0, nowOverride(options)];
  for (const rule of prepared.rules) for (const value of rule) args.push(value);
  if (request.lease !== undefined) args.push(request.lease);
  return args;
}

// The checks' integers as lua/check-many.lua reads them: each in base 32, most significant
// digit first, every digit but the last as "P" + digit and the last as "0" + digit (all
// printable ASCII). Redis decodes that from the string's bytes in one pass, under half the
// cost of splitting decimal text with gmatch (docs/architecture.md).
const SMALL = 1_024;
const smallCodes: string[] = Array.from({ length: SMALL }, (_, n) => encodeInt(n));

function encodeInt(n: number): string {
  let text = String.fromCharCode(48 + (n % 32));
  for (let rest = Math.floor(n / 32); rest > 0; rest = Math.floor(rest / 32))
    text = String.fromCharCode(80 + (rest % 32)) + text;
  return text;
}

/** One integer (>= 0) of the checks' string. */
export function checkInt(n: number): string {
  return n < SMALL ? (smallCodes[n] as string) : encodeInt(n);
}

/**
 * KEYS and ARGV of lua/check-many.lua for checks of one tenant, in order: distinct keys and
 * rules once, then the checks as one string: each as cost, flags (dryRun, lease), its
 * lease id when it has one, n and a (key, rule) index pair per limit (checkInt).
 */
export function buildManyCall(prepared: readonly PreparedCheck[], options?: EvaluateOptions): ScriptCall {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const ruleIndex = new Map<LimitArgs, number>();
  const ruleArgs: Array<number | string> = [];
  let checks = "";
  for (const p of prepared) {
    const { request } = p.check;
    // flags: 1 dryRun, 2 a lease id follows (lua/check-many.lua)
    const { lease } = request;
    checks +=
      lease === undefined
        ? checkInt(request.cost) + checkInt(request.dryRun ? 1 : 0) + checkInt(p.keys.length)
        : checkInt(request.cost) +
          checkInt(request.dryRun ? 3 : 2) +
          checkInt(lease) +
          checkInt(p.keys.length);
    for (let i = 0; i < p.keys.length; i++) {
      const key = p.keys[i] as string;
      let k = keyIndex.get(key);
      if (k === undefined) {
        keys.push(key);
        keyIndex.set(key, (k = keys.length));
      }
      const rule = p.rules[i] as LimitArgs;
      let r = ruleIndex.get(rule);
      if (r === undefined) {
        for (const value of rule) ruleArgs.push(value);
        ruleIndex.set(rule, (r = ruleIndex.size + 1));
      }
      checks += checkInt(k) + checkInt(r);
    }
  }
  const args: Array<number | string> = [nowOverride(options), ruleIndex.size];
  for (const value of ruleArgs) args.push(value);
  args.push(prepared.length, checks);
  return { keys, args };
}
