import { describe, expect, it } from "vitest";
import { leaseToken, readLeaseToken } from "@/lib/check/lease/lease-token";
import { tenantTag } from "@/lib/check/limiter/keys";
import { pairField, parsePairField } from "@/lib/usage/keys";
import { leaseField, parseLeaseField } from "@/lib/usage/lease-fields";
import { UsageBatch } from "@/lib/usage/record/batch";
import { pairTexts } from "@/lib/usage/pair-series";
import { minuteRows } from "@/lib/usage/store/redis-read";

// Lease counts in the usage layout (lib/usage/lease-fields.ts): their own codes, counted by
// the batch at the acquisition and at the expiry, and a minute's expired = due less released
// before due. The lease token carries what a release is counted under.

const ZERO = {
  allowed: 0,
  rejected: 0,
  shadowRejected: 0,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
};

describe("lease fields", () => {
  it("round-trip, and the outcome readers skip them", () => {
    const field = leaseField("k1", "GET /a|b/:id", "releasedDue");
    expect(field).toBe("k1|GET /a|b/:id|lu");
    expect(parseLeaseField(field)).toEqual({ keyId: "k1", route: "GET /a|b/:id", tally: "releasedDue" });
    expect(parsePairField(field)).toBeNull();
    expect(parseLeaseField(pairField("k1", "r", "allowed"))).toBeNull();
    expect(parseLeaseField("k1|r|lz")).toBeNull();
  });
});

describe("the batch", () => {
  it("counts a lease taken now and due at its expiry, and a release now and at that expiry", () => {
    const batch = new UsageBatch({ maxFields: 100, maxSubjects: 10 });
    const now = 60_000 * 100 + 30_500; // second 30 of minute 100
    const due = now + 45_000; // second 15 of minute 101
    batch.add(
      { tenantId: "t", keyId: "k", route: "r", outcome: "allowed", subject: null, leaseDueMs: due },
      now,
    );
    batch.add({ tenantId: "t", keyId: "k", route: "r", outcome: "allowed", subject: null }, now);
    batch.addRelease({ tenantId: "t", keyId: "k", route: "r", dueMs: due }, now + 1_000);
    const pairs = batch.tenants.get("t")?.pairs;
    expect(pairTexts(pairs?.get(100) ?? new Map())).toEqual(
      new Map([
        ["k|r|a", "30:2"],
        ["k|r|la", "30:1"],
        ["k|r|lr", "31:1"],
      ]),
    );
    expect(pairTexts(pairs?.get(101) ?? new Map())).toEqual(
      new Map([
        ["k|r|ld", "15:1"],
        ["k|r|lu", "15:1"],
      ]),
    );
    expect([batch.events, batch.releases, batch.empty]).toEqual([2, 1, false]);
  });

  it("keeps a lease's two counts together when it is full", () => {
    const batch = new UsageBatch({ maxFields: 2, maxSubjects: 10 });
    batch.add(
      { tenantId: "t", keyId: "k", route: "r", outcome: "allowed", subject: null, leaseDueMs: 9_000 },
      1_000,
    );
    // the decision is counted; its lease would need two more fields
    expect(batch.dropped).toBe(1);
    expect([...(batch.tenants.get("t")?.pairs.get(0)?.values() ?? [])].flatMap((m) => [...m.keys()])).toEqual(
      ["k|r|a"],
    );
  });
});

describe("a minute's rows", () => {
  it("count expired as due less released before due, never below zero", () => {
    const hash = {
      pairs: {
        "k|r|a": "1:5",
        "k|r|la": "1:5",
        "k|r|lr": "3:2",
        "k|r|ld": "50:3,59:2",
        "k|r|lu": "59:2",
        "k|q|lu": "9:1",
      },
      seconds: {},
    };
    expect(minuteRows("t", hash)).toEqual([
      {
        tenantId: "t",
        keyId: "k",
        route: "r",
        ...ZERO,
        allowed: 5,
        leasesAcquired: 5,
        leasesReleased: 2,
        leasesExpired: 3,
      },
      { tenantId: "t", keyId: "k", route: "q", ...ZERO },
    ]);
  });
});

describe("the lease token", () => {
  const tag = tenantTag("tenant-1");
  const keys = [`${tag}:in-flight:k1:c`];

  it("names the key, route and expiry a release is counted under", () => {
    const token = leaseToken("tenant-1", 42, keys, {
      keyId: "k1",
      route: "POST /v1/jobs",
      dueMs: 1_800_000_000_000,
    });
    expect(readLeaseToken(token)).toEqual({
      tenantId: "tenant-1",
      id: "42",
      keys,
      usage: { keyId: "k1", route: "POST /v1/jobs", dueMs: 1_800_000_000_000 },
    });
    const bare = leaseToken("tenant-1", 42, keys, { keyId: null, route: null, dueMs: 5 });
    expect(readLeaseToken(bare)?.usage).toEqual({ keyId: null, route: null, dueMs: 5 });
  });

  it("reads a token without usage (made before leases were counted, or taken by no limit)", () => {
    const old = Buffer.from(JSON.stringify({ t: "tenant-1", l: "42", k: [":in-flight:k1:c"] })).toString(
      "base64url",
    );
    expect(readLeaseToken(old)).toMatchObject({ id: "42", keys, usage: null });
    expect(readLeaseToken(leaseToken("tenant-1", 42, keys, null))?.usage).toBeNull();
  });
});
