// sluice import-envoy without a server: the converted document on stdout (or in --out), the
// report as FILE:LINE lines on stderr, and a file that cannot be converted exits 2.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "@/packages/client/src/cli/main";
import type { Io } from "@/packages/client/src/cli/io";

const FIXTURES = new URL("../../fixtures/envoy/", import.meta.url).pathname;

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) };
  const code = await main(args, { NODE_ENV: "test" }, io);
  return { code, out, err };
}

describe("sluice import-envoy", () => {
  it("prints the document and reports each line it could not carry over", async () => {
    const file = join(FIXTURES, "example-3.yaml");
    const { code, out, err } = await run(["import-envoy", file, "--plan", "free"]);
    expect(code).toBe(0);
    const document = parse(out) as {
      tenants: { slug: string; plan: string; routes: { pattern: string }[] }[];
    };
    expect(document.tenants[0]).toMatchObject({ slug: "edge-proxy-per-ip", plan: "free" });
    expect(document.tenants[0]!.routes.map((r) => r.pattern)).toEqual([
      "* /remote_address/:remote_address",
      "* /remote_address/50.0.0.5",
    ]);
    expect(out).toContain(
      "- { name: per-second, by: subject, algorithm: fixed_window, limit: 10, window: 1s }",
    );
    expect(err.split("\n").filter(Boolean)).toEqual([
      `${file}:1: domain "edge_proxy_per_ip" is imported as tenant "edge-proxy-per-ip"`,
      `${file}:14: requests_per_unit: 0 (deny all): Sluice's smallest limit is 1, imported as 1 per 365 days`,
      "Domain edge_proxy_per_ip -> tenant edge-proxy-per-ip: 2 routes; 2 lines reported.",
    ]);
  });

  it("writes --out, names the tenant with --tenant, and gives JSON with --json", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "sluice-envoy-")), "edge.yaml");
    const file = join(FIXTURES, "example-1.yaml");
    const written = await run(["import-envoy", file, "--plan", "free", "--tenant", "mongo", "--out", out]);
    expect(written.code).toBe(0);
    expect(written.out).toBe("");
    expect(readFileSync(out, "utf8")).toContain("slug: mongo\n");
    const json = await run(["import-envoy", file, "--plan", "free", "--json"]);
    expect(JSON.parse(json.out)).toMatchObject({ tenant: "mongo-cps", report: [{ line: 1 }] });
  });

  it("exits 2 without --plan, and on a file it cannot convert, naming the line", async () => {
    const noPlan = await run(["import-envoy", join(FIXTURES, "example-1.yaml")]);
    expect(noPlan.code).toBe(2);
    expect(noPlan.err).toContain("needs --plan NAME");
    const missing = await run(["import-envoy", join(FIXTURES, "missing.yaml"), "--plan", "free"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("Cannot read");
  });
});
