// sluice import-envoy --dry-run / --apply against the running app: the server converts the
// envoy file (PUT ?format=envoy), the report comes back as FILE:LINE lines, and the imported
// limit is enforced for `sluice check` with the route and subject of the descriptor.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { descriptorCheck } from "@sluice/client/envoy";
import { anyPlan, uniqueSlug } from "../admin/http";
import { sluice, WORKDIR } from "./run-cli";

const tenant = uniqueSlug("envoycli");
const FILE = `domain: cli_envoy
descriptors:
  - key: user
    detailed_metric: true
    rate_limit:
      unit: day
      requests_per_unit: 1
`;

let plan = "";
beforeAll(async () => {
  plan = await anyPlan();
  writeFileSync(join(WORKDIR, "ratelimit.yaml"), FILE);
});

async function checkAlice(): Promise<{ code: number; stdout: string }> {
  const { route, subject } = descriptorCheck([{ key: "user", value: "alice" }]);
  return sluice(["check", "--tenant", tenant, "--route", route, "--subject", subject]);
}

describe("sluice import-envoy through the server", { timeout: 120_000 }, () => {
  it("dry run, apply, and the limit holds: one a day for each user", async () => {
    const args = ["import-envoy", "ratelimit.yaml", "--plan", plan, "--tenant", tenant];
    const dry = await sluice([...args, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toContain(`would be applied to tenant ${tenant}`);
    expect(dry.stderr).toContain("ratelimit.yaml:4: detailed_metric: metrics only");

    const applied = await sluice([...args, "--apply"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(
      new RegExp(`Applied \\d+ changes? to tenant ${tenant}; config version \\d+`),
    );

    // the first check may reach a server still on the previous version: wait until one is allowed
    const deadline = Date.now() + 10_000;
    let first = await checkAlice();
    while (!first.stdout.includes("per-day") && Date.now() < deadline) first = await checkAlice();
    expect(first.code, first.stdout).toBe(0);
    const second = await checkAlice();
    expect(second.code, second.stdout).toBe(1);
    const bob = descriptorCheck([{ key: "user", value: "bob" }]);
    expect(
      (await sluice(["check", "--tenant", tenant, "--route", bob.route, "--subject", bob.subject])).code,
    ).toBe(0);
  });

  it("a file the server cannot convert exits 2 with its line", async () => {
    writeFileSync(join(WORKDIR, "nodomain.yaml"), "descriptors: []\n");
    const run = await sluice(["import-envoy", "nodomain.yaml", "--plan", plan, "--apply"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("nodomain.yaml:1: domain: required");
  });
});
