// A tenant's `headers` field: accepted values, the refusal naming the field, and what the
// compiled tenant (the published snapshot the check front reads) carries.

import { describe, expect, it } from "vitest";
import { validateDocument } from "@/lib/control/config/document";
import { compileSnapshot, idMapFromNames } from "@/lib/control/config/compile";
import { HEADER_FLAVOURS } from "@/lib/shared/config-terms";

const tenant = (extra: Record<string, unknown>) => ({ slug: "acme", plan: "p", ...extra });
const documentWith = (extra: Record<string, unknown>) => ({
  plans: [{ name: "p", limits: [] }],
  tenants: [tenant(extra)],
});

describe("tenants[].headers", () => {
  it("accepts every flavour and leaves the field out when not given", () => {
    for (const headers of HEADER_FLAVOURS) {
      const result = validateDocument(documentWith({ headers }));
      expect(result.ok && result.document.tenants?.[0]?.headers).toBe(headers);
    }
    const without = validateDocument(documentWith({}));
    expect(without.ok && "headers" in (without.document.tenants?.[0] ?? {})).toBe(false);
  });

  it("refuses anything else, naming the field", () => {
    for (const headers of ["draft-8", "Draft-7", 7, null]) {
      const result = validateDocument(documentWith({ headers }));
      expect(result.ok ? [] : result.errors).toEqual([
        {
          path: "tenants[0].headers",
          message: "must be one of draft-11, draft-7, draft-6, legacy, legacy-epoch",
        },
      ]);
    }
  });

  it("compiles into the snapshot only when it is not the default", () => {
    for (const [headers, compiled] of [
      ["legacy-epoch", "legacy-epoch"],
      ["draft-7", "draft-7"],
      ["draft-11", undefined],
      [undefined, undefined],
    ] as const) {
      const result = validateDocument(documentWith(headers === undefined ? {} : { headers }));
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const snapshot = compileSnapshot(result.document, idMapFromNames(result.document), 1);
      expect(snapshot.tenants.acme?.headers).toBe(compiled);
      expect("headers" in (snapshot.tenants.acme ?? {})).toBe(compiled !== undefined);
    }
  });
});
