import { afterAll, describe, expect, it } from "vitest";
import { closeClients, setupTenants, unique } from "../check/setup";
import { sluice } from "./run-cli";

// `sluice overrides list|create|end` against the running app (docs/cli.md).

const slug = unique("cli-ovr");

afterAll(closeClients);

describe("sluice overrides", () => {
  it("creates, lists and ends an override; a bad end time fails naming the field", async () => {
    await setupTenants([
      {
        slug,
        plan: "free",
        limits: [
          { name: "tenant-rpm", disabled: true },
          { name: "key-rps", disabled: true },
          { name: "ip-per-min", disabled: true },
          { name: "cli-few", by: "tenant", algorithm: "fixed_window", limit: 3, window: "1h" },
        ],
      },
    ]);
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const base = [
      "overrides",
      "create",
      "--tenant",
      slug,
      "--limit",
      "cli-few",
      "--value",
      "30",
      "--reason",
      "cli test",
    ];
    const bad = await sluice([...base, "--ends", "2031-01-01T00:00:00Z"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("endsAt");
    const created = await sluice([...base, "--ends", ends, "--json"]);
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const listed = await sluice(["overrides", "list", slug]);
    expect(listed.stdout).toContain(`${id}\t${slug}\tevery check\tcli-few\t30\tactive`);
    const ended = await sluice(["overrides", "end", id]);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain("\tended\t");
    expect((await sluice(["overrides", "list", slug])).stdout).toContain("No overrides in force or waiting.");
  }, 60_000);
});
