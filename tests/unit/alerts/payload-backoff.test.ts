import { describe, expect, it } from "vitest";
import { backoffMs } from "@/lib/control/alerts/delivery-worker";
import { alertPayloadSchema, bodyFor, summaryOf, type AlertPayload } from "@/lib/control/alerts/payload";
import { parseStored, StoredDataError } from "@/lib/shared/parse-stored";

// Retry delays double from the base up to an hour; the Slack shape carries the summary only.

describe("backoff", () => {
  it("doubles after each failed attempt, capped at an hour", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffMs(10_000, 30)).toBe(3_600_000);
  });
});

describe("payload", () => {
  const base: Omit<AlertPayload, "summary"> = {
    event: "firing",
    tenant: "globex",
    rule: {
      id: "r1",
      name: "near",
      kind: "utilization",
      limit: "ingest-rps",
      keyId: null,
      route: null,
      thresholdPct: 80,
      forSeconds: 60,
    },
    incident: { id: "i1", firedAt: "2026-11-25T00:00:00.000Z", resolvedAt: null },
    value: 91.5,
    keyId: null,
  };
  const payload: AlertPayload = { ...base, summary: summaryOf(base) };

  it("says what fired in one line", () => {
    expect(payload.summary).toBe(
      "[Sluice] FIRING globex / near: utilization of ingest-rps above 80% for 60s (91.5%)",
    );
  });
  it("sends the whole message as JSON, or { text } for Slack", () => {
    expect(JSON.parse(bodyFor("json", payload))).toEqual(payload);
    expect(JSON.parse(bodyFor("slack", payload))).toEqual({ text: payload.summary });
  });
  it("is read back from the database through its schema, a misfit naming the field", () => {
    expect(parseStored(alertPayloadSchema, JSON.parse(JSON.stringify(payload)), "payload")).toEqual(payload);
    const broken = { ...payload, rule: { ...payload.rule, name: 7 } };
    expect(() => parseStored(alertPayloadSchema, broken, "Alert delivery d1's payload")).toThrow(
      StoredDataError,
    );
    expect(() => parseStored(alertPayloadSchema, broken, "Alert delivery d1's payload")).toThrow(
      /^Alert delivery d1's payload does not fit its schema at rule\.name: /,
    );
    expect(() => parseStored(alertPayloadSchema, null, "payload")).toThrow(/at its top level: /);
  });
});
