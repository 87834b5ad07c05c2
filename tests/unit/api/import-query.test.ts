// PUT /api/admin/config's query: flags as text, false when absent, anything else refused.
import { describe, expect, it } from "vitest";
import { ImportQuery } from "@/lib/control/api/import-query";

describe("ImportQuery", () => {
  it("defaults both flags to false and reads true/1/false/0", () => {
    const sluice = { format: "sluice" };
    expect(ImportQuery.parse({})).toEqual({ prune: false, dryRun: false, ...sluice });
    expect(ImportQuery.parse({ prune: "1", dryRun: "true" })).toEqual({
      prune: true,
      dryRun: true,
      ...sluice,
    });
    expect(ImportQuery.parse({ prune: "0", dryRun: "false" })).toEqual({
      prune: false,
      dryRun: false,
      ...sluice,
    });
  });

  it("reads an envoy import's format, plan and tenant, and refuses a bad plan name", () => {
    expect(ImportQuery.parse({ format: "envoy", plan: "free", tenant: "edge" })).toEqual({
      prune: false,
      dryRun: false,
      format: "envoy",
      plan: "free",
      tenant: "edge",
    });
    expect(ImportQuery.safeParse({ format: "istio" }).error?.issues[0]).toMatchObject({ path: ["format"] });
    expect(ImportQuery.safeParse({ plan: "Free Plan" }).error?.issues[0]).toMatchObject({ path: ["plan"] });
  });

  it("refuses other values and unknown parameters, naming them", () => {
    const bad = ImportQuery.safeParse({ prune: "maybe" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["prune"], message: "must be true or false" });
    expect(ImportQuery.safeParse({ dryrun: "true" }).success).toBe(false);
  });
});
