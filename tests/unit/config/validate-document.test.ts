// validateDocument and parseDocumentText beyond the fixtures: good documents, context for
// partial documents, the stand-alone full limit form, and text parsing.

import { describe, expect, it } from "vitest";

import {
  fullLimitSchema,
  parseDocumentText,
  validateDocument,
  type PlanDoc,
} from "@/lib/control/config/document";

import { fixtureDocument } from "./load-document";

describe("validateDocument", () => {
  it("accepts the docs/configuration.md example and fills defaults", () => {
    const document = fixtureDocument("example.yaml");
    expect(document.tenants?.[0]).toMatchObject({ slug: "acme", status: "active" });
    expect(document.tenants?.[0]?.keys[0]).toEqual({
      name: "backend",
      limits: [{ name: "key-rps", limit: 100, burst: 200 }],
    });
  });

  it("accepts an empty document (nothing to change) and keeps left-out sections undefined", () => {
    expect(validateDocument({})).toEqual({ ok: true, document: {} });
  });

  it("reports every shape error at once, in document order", () => {
    const result = validateDocument(
      {
        tenants: [
          { slug: "a", plan: "free", limits: [{ name: "x", window: "0s" }] },
          { slug: "b", plan: "free", limits: [{ name: "y", limit: 0 }] },
          {
            slug: "c",
            plan: "free",
            limits: [
              { name: "z", limit: 1 },
              { name: "w", burst: -1 },
            ],
          },
        ],
      },
      { plans: [{ name: "free", limits: [] }] },
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: "tenants[0].limits[0].window", message: "must be a duration > 0" },
        { path: "tenants[1].limits[0].limit", message: "must be at least 1" },
        { path: "tenants[2].limits[1].burst", message: "must be at least 1" },
      ],
    });
  });

  it("reads a tenant-only document against the plans it is given as context", () => {
    const plans: PlanDoc[] = [
      {
        name: "free",
        limits: [{ name: "tenant-rpm", by: "tenant", algorithm: "gcra", limit: 10, window: "1s" }],
      },
    ];
    const input = {
      tenants: [{ slug: "acme", plan: "free", limits: [{ name: "tenant-rpm", limit: 20, action: "delay" }] }],
    };
    expect(validateDocument(input, { plans }).ok).toBe(true);
    expect(validateDocument(input)).toEqual({
      ok: false,
      errors: [{ path: "tenants[0].plan", message: 'unknown plan "free"; no plans are declared' }],
    });
    const broken = { tenants: [{ slug: "acme", plan: "free", limits: [{ name: "other", limit: 20 }] }] };
    const result = validateDocument(broken, { plans });
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      "tenants[0].limits[0].algorithm",
      "tenants[0].limits[0].by",
      "tenants[0].limits[0].window",
    ]);
  });

  it("accepts window as an integer of milliseconds and windowMs alike", () => {
    const limits = [
      { name: "a", by: "key", algorithm: "gcra", limit: 1, window: 1500 },
      { name: "b", by: "key", algorithm: "gcra", limit: 1, windowMs: 1500 },
      {
        name: "c",
        by: "key",
        algorithm: "leaky_bucket",
        limit: 1,
        window: "1d",
        action: "delay",
        maxDelayMs: 250,
      },
    ];
    expect(validateDocument({ plans: [{ name: "p", limits }] }).ok).toBe(true);
  });
});

describe("fullLimitSchema (a new limit in a form)", () => {
  it("requires the rule fields and refuses disabled", () => {
    const result = fullLimitSchema.safeParse({ name: "x", limit: 5, disabled: true });
    expect(result.success).toBe(false);
    const paths = result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
    expect(paths.sort()).toEqual(["algorithm", "by"]);
    const second = fullLimitSchema.safeParse({
      name: "x",
      by: "key",
      algorithm: "gcra",
      limit: 5,
      disabled: true,
    });
    expect(second.success ? [] : second.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(
      ["window: required", "disabled: only an override can be disabled"],
    );
  });
});

describe("parseDocumentText", () => {
  it("reads YAML and JSON into the same input", () => {
    const yaml = parseDocumentText("plans:\n  - name: free\n    limits: []\n", "yaml");
    const json = parseDocumentText('{ "plans": [ { "name": "free", "limits": [] } ] }', "json");
    expect(yaml).toEqual({ ok: true, input: { plans: [{ name: "free", limits: [] }] } });
    expect(json).toEqual(yaml);
  });

  it("reports YAML syntax errors with their line at path ''", () => {
    expect(parseDocumentText("plans:\n  - name: free\n  - name: free\n    name: pro\n", "yaml")).toEqual({
      ok: false,
      errors: [{ path: "", message: "line 4: Map keys must be unique (column 5)", line: 4, column: 5 }],
    });
    const multi = parseDocumentText("plans: []\n---\ntenants: []\n", "yaml");
    expect(multi.ok ? [] : multi.errors).toEqual([
      {
        path: "",
        message: 'line 2: a config file holds one document; remove the "---" separator (column 1)',
        line: 2,
        column: 1,
      },
    ]);
  });

  it("reports JSON syntax errors with their line", () => {
    const result = parseDocumentText('{\n  "plans": [],\n  "tenants": [}\n', "json");
    expect(result).toEqual({ ok: false, errors: [{ path: "", message: "line 3: Unexpected token '}'" }] });
    const trailing = parseDocumentText('{\n  "plans": [],\n}', "json");
    expect(trailing.ok ? "" : trailing.errors[0]?.message).toMatch(/^line 3: /);
  });
});
