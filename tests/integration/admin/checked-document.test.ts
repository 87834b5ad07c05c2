// A document the worker validated is imported as it was validated, not validated a second
// time on the app's event loop, while the plans and global routes it was validated against
// are still those the import writes over; when they changed, the import validates again.
// Shown with an input naming a plan that does not exist and, as the worker's result, the
// same tenant on a plan that does: the dry run succeeds only when the import took the latter.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigDocument } from "@/lib/control/config/document";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { importConfig } from "@/lib/control/data/import-config";
import { readValidationContext } from "@/lib/control/data/validation-context";
import { addPlansAndRoutes, closeClients, tester } from "../check/setup";

const tag = randomBytes(3).toString("hex");
const slug = `checked-${tag}`;

async function documents(): Promise<{ input: unknown; validated: ConfigDocument; plan: string }> {
  const plan = (await readValidationContext()).plans[0]?.name;
  if (!plan) throw new Error("the test database has no plan");
  const tenant = { slug, status: "active" as const, limits: [], routes: [], keys: [] };
  return {
    plan,
    input: { tenants: [{ slug, plan: `no-such-plan-${tag}` }] },
    validated: { tenants: [{ ...tenant, plan }] },
  };
}

beforeAll(async () => {
  // a plan with a service limit: the context the worker validated against must read it as
  // the import does, or every document would be validated twice
  await addPlansAndRoutes([
    { name: `svc-${tag}`, service: { checksPerSecond: 5000, burst: 5000 }, limits: [] },
  ]);
});

afterAll(async () => {
  await closeClients();
});

describe("a document validated in the worker", () => {
  it("is imported as validated while the plans and routes are unchanged", async () => {
    const { input, validated } = await documents();
    // other test files add plans at any time: an attempt whose context changed before the
    // import read it is validated again by design, and is tried once more
    for (let attempt = 1; ; attempt++) {
      const against = await readValidationContext();
      try {
        const result = await importConfig(tester, input, {
          dryRun: true,
          checked: { document: validated, against },
        });
        expect(result.changes).toEqual([{ action: "create", target: "tenant", name: slug }]);
        return;
      } catch (error) {
        const changed = JSON.stringify(await readValidationContext()) !== JSON.stringify(against);
        if (!(error instanceof ValidationFailed) || !changed || attempt === 5) throw error;
      }
    }
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
    const imported = importConfig(tester, input, { dryRun: true, checked: { document: validated, against } });
    await expect(imported).rejects.toBeInstanceOf(ValidationFailed);
    await expect(imported).rejects.toThrow(/no-such-plan/);
  });
});
