// Where a limit declaration sits in the document. The origin of the first declaration in
// a chain (the base) gives a compiled limit its identity; the origins of later ones
// (overrides) make its provenance.

import type { LimitLevel } from "@/lib/shared/config-terms";

export type { LimitLevel };

export type LimitOrigin =
  | { level: "plan"; plan: string }
  | { level: "route"; scope: "global"; pattern: string }
  | { level: "route"; scope: "tenant"; tenant: string; pattern: string }
  | { level: "tenant"; tenant: string }
  | { level: "key"; tenant: string; key: string };

/** Short human label: "plan free", "route POST /v1/search", "key backend". */
export function describeOrigin(origin: LimitOrigin): string {
  switch (origin.level) {
    case "plan":
      return `plan ${origin.plan}`;
    case "route":
      return origin.scope === "global"
        ? `route ${origin.pattern}`
        : `tenant ${origin.tenant} route ${origin.pattern}`;
    case "tenant":
      return `tenant ${origin.tenant}`;
    case "key":
      return `key ${origin.key}`;
  }
}
