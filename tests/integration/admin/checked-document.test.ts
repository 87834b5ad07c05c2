// A document the worker validated is imported as it was validated, not validated a second
// time on the app's event loop, while the plans and global routes it was validated against
// are still those the import writes over; when they changed, the import validates again.
// Shown with a checked document that differs from the text's input: whichever of the two
// the dry run reports is the one the import took.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { ConfigDocument } from "@/lib/config/document";
import { importConfig } from "@/lib/data/import-config";
import { readValidationContext } from "@/lib/data/validation-context";
import { closeClients, tester } from "../check/setup";

const tag = randomBytes(3).toString("hex");

async function documents(): Promise<{ input: ConfigDocument; validated: ConfigDocument; plan: string }> {
  const context = await readValidationContext();
  const plan = context.plans[0]?.name;
  if (!plan) throw new Error("the test database has no plan");
  return {
    plan,
    input: {
      tenants: [{ slug: `as-sent-${tag}`, plan, status: "active", limits: [], routes: [], keys: [] }],
    },
    validated: {
      tenants: [{ slug: `as-checked-${tag}`, plan, status: "active", limits: [], routes: [], keys: [] }],
    },
  };
}

afterAll(async () => {
  await closeClients();
});

describe("a document validated in the worker", () => {
  it("is imported as validated while the plans and routes are unchanged", async () => {
    const { input, validated } = await documents();
    const against = await readValidationContext();
    const result = await importConfig(tester, input, {
      dryRun: true,
      checked: { document: validated, against },
    });
    expect(result.changes).toEqual([{ action: "create", target: "tenant", name: `as-checked-${tag}` }]);
  });

  it("is validated again when the plans changed since", async () => {
    const { input, validated, plan } = await documents();
    const against = {
      plans: [
        { name: plan, limits: [] },
        { name: `gone-${tag}`, limits: [] },
      ],
      routes: [],
    };
    const result = await importConfig(tester, input, {
      dryRun: true,
      checked: { document: validated, against },
    });
    expect(result.changes).toEqual([{ action: "create", target: "tenant", name: `as-sent-${tag}` }]);
  });
});
