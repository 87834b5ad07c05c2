import "server-only";
import type { HistoryPage } from "@/lib/control/data/config-history";
import { toYaml } from "@/lib/control/data/queries/config-yaml";
import type { ShownChange } from "@/components/ops/history-view";

/** Each version's changes with before and after as YAML, for the line diff. */
export function changesAsYaml(page: HistoryPage): Map<number, ShownChange[]> {
  return new Map(
    page.versions.map((v) => [
      v.version,
      v.changes.map((c) => ({
        id: c.id,
        revertible: c.revertible,
        action: c.action,
        target: c.target.id ?? c.target.type,
        tenant: c.tenant,
        before: c.before === null || c.before === undefined ? "" : toYaml(c.before),
        after: c.after === null || c.after === undefined ? "" : toYaml(c.after),
      })),
    ]),
  );
}
