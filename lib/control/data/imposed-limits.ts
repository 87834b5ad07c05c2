import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";

// Limits imposed on a tenant by an operator: those whose base is a plan's or a global
// route's (docs/configuration.md). An override keeps its base's id, so the id says where a limit was
// imposed even when an operator's override changed its values.

/** "plan free" / "global route * /v1/admin/*" when the limit is imposed, else null. */
export function imposedBy(limit: CompiledLimit): string | null {
  if (limit.id.startsWith("p:")) {
    const plan = limit.id.slice(2, limit.id.length - limit.name.length - 1);
    return `plan ${plan}`;
  }
  if (limit.id.startsWith("r:global:")) {
    const pattern = limit.id.slice("r:global:".length, limit.id.length - limit.name.length - 1);
    return `global route ${pattern}`;
  }
  return null;
}
