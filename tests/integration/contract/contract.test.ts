// The contract test (the OpenAPI document must not drift from the code): real requests to
// every operation of /api/openapi.json on the running app, success and the main errors,
// each real answer (status, headers, body) validated against the document; at the end every
// operation must have been exercised. The requests live in topic files (system-checks.ts,
// config-keys.ts, counters-ops.ts) and run here, in this order, against one validator: the
// coverage check needs them all.
import { describe, expect, it } from "vitest";
import { contractSetup } from "./contract-context";
import { systemAndChecks } from "./system-checks";
import { configAndCredentials } from "./config-keys";
import { countersAndOps } from "./counters-ops";
import { replayContract } from "./replay-contract";
import { alertsContract } from "./alerts-contract";
import { overridesContract } from "./overrides-contract";
import { bulkContract } from "./bulk-contract";

const c = contractSetup();
systemAndChecks(c);
configAndCredentials(c);
countersAndOps(c);
replayContract(c);
alertsContract(c);
overridesContract(c);
bulkContract(c);

// Last in the file (tests run in order): a route added to the document without a request
// above fails the run.
describe("coverage", () => {
  it("exercised every operation of the document", () => {
    const missing = c.validator.operations().filter((operation) => !c.validator.exercised.has(operation));
    expect(missing, "operations without a contract test").toEqual([]);
  });
});
