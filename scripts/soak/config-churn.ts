// The soak's configuration changes: every 30 s the whole configuration is exported and
// imported again with the bench plan's tenant-wide limit one lower (a new version that
// every server swaps in). While PostgreSQL restarts a change fails: counted, not retried.
import type { Principal } from "@/lib/shared/principal";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";

const SOAK: Principal = { kind: "system", label: "soak" };

export interface Churn {
  stop(): { changes: number; failed: number; firstError: string };
}

export function startConfigChurn(everyMs = 30_000): Churn {
  let changes = 0;
  let failed = 0;
  let step = 0;
  let firstError = "";
  const change = async (): Promise<void> => {
    step += 1;
    try {
      const document = await exportConfig(SOAK);
      for (const plan of document.plans ?? []) {
        for (const limit of plan.limits ?? [])
          if (limit.name === "tenant-rpm") limit.limit = 1_000_000_000 - step;
      }
      await importConfig(SOAK, document);
      changes += 1;
    } catch (error) {
      failed += 1;
      firstError ||= String(error).slice(0, 200);
    }
  };
  const timer = setInterval(() => void change(), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { changes, failed, firstError };
    },
  };
}
