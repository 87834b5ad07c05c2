// The probe's key: a key of the bench tenant with one tight fixed window of its own.
import { createApiKey } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import { document } from "../../bench/seed-bench";
import { PROBE_LIMIT, PROBE_WINDOW_MS } from "./probe";

export const PROBE_LIMIT_NAME = "probe-window";
const SYSTEM = { kind: "system", label: "soak" } as const;

/** Creates the probe key and its limit; returns the key's secret. */
export async function seedProbe(): Promise<string> {
  const { key } = await createApiKey(SYSTEM, "bench", { name: "probe" });
  const config = document(true);
  const tenant = config.tenants[0];
  if (!tenant) throw new Error("the bench document has no tenant");
  const limit = {
    name: PROBE_LIMIT_NAME,
    by: "key",
    algorithm: "fixed_window",
    limit: PROBE_LIMIT,
    window: `${PROBE_WINDOW_MS / 1_000}s`,
  };
  await importConfig(SYSTEM, {
    ...config,
    tenants: [{ ...tenant, keys: [...tenant.keys, { name: "probe", limits: [limit] }] }],
  });
  return key;
}
