// The envoy files of tests/fixtures/envoy (envoyproxy/ratelimit's README examples, written out)
// converted with the plan every test uses.
import { readFileSync } from "node:fs";
import { convertEnvoyConfig, type EnvoyConversion } from "@sluice/client/envoy";

export const PLAN = "free";

export function envoyFixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/envoy/${name}`, import.meta.url), "utf8");
}

export function convertFixture(name: string): EnvoyConversion & { ok: true } {
  const result = convertEnvoyConfig(envoyFixture(name), { plan: PLAN });
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.errors)}`);
  return result;
}

export const fw = (limit: number, window: string, extra: Record<string, string> = {}) => ({
  name: `per-${{ "1s": "second", "1m": "minute", "1h": "hour", "1d": "day", "7d": "week", "30d": "month" }[window] ?? "x"}`,
  by: "subject",
  algorithm: "fixed_window",
  limit,
  window,
  ...extra,
});
