import { describe, expect, it } from "vitest";
import { UsageBatch } from "@/lib/usage/batch";
import {
  FIELDS_PER_MINUTE,
  parseSubjectField,
  SUBJECTS_PER_MINUTE,
  SubjectAdmission,
  subjectField,
} from "@/lib/usage/subject-series";
import type { UsageEvent } from "@/lib/usage/types";

// The replay's per-subject series: the field layout survives any route and subject text,
// and the caps per tenant and minute hold against a tenant sending random subjects.

const event = (subject: string | null, tenantId = "t1", route: string | null = "GET /x"): UsageEvent => ({
  tenantId,
  keyId: "k",
  route,
  outcome: "allowed",
  subject,
});

function fieldsOf(batch: UsageBatch, tenantId = "t1"): Map<string, number> {
  const out = new Map<string, number>();
  for (const fields of batch.tenants.get(tenantId)?.subjectSeconds.values() ?? [])
    for (const [field, count] of fields) out.set(field, (out.get(field) ?? 0) + count);
  return out;
}

describe("subject series", () => {
  it("round-trips fields whose route and subject hold bars and digits", () => {
    const field = subjectField(7, "GET /a|b", "12|x|");
    expect(parseSubjectField(field)).toEqual({ second: 7, route: "GET /a|b", subject: "12|x|" });
    expect(parseSubjectField(subjectField(0, "", ""))).toEqual({ second: 0, route: "", subject: "" });
    expect(parseSubjectField("x|1|a")).toBeNull();
    expect(parseSubjectField("1|9|short")).toBeNull();
  });

  it("counts each subject per second and route; checks without a subject are not counted", () => {
    const batch = new UsageBatch({
      maxFields: 1_000,
      maxSubjects: 10,
      subjectSeries: new SubjectAdmission(),
    });
    const t = 60_000 * 1_000 + 3_000;
    batch.add(event("ip-1"), t);
    batch.add(event("ip-1"), t + 10);
    batch.add(event("ip-2", "t1", null), t + 1_000);
    batch.add(event(null), t);
    expect(fieldsOf(batch)).toEqual(
      new Map([
        [subjectField(3, "GET /x", "ip-1"), 2],
        [subjectField(4, "", "ip-2"), 1],
      ]),
    );
  });

  it("past the subjects of a minute, checks count under the empty subject; a new minute starts afresh", () => {
    const admission = new SubjectAdmission();
    const batch = new UsageBatch({ maxFields: 100_000, maxSubjects: 10, subjectSeries: admission });
    const t = 60_000 * 2_000;
    for (let s = 0; s < SUBJECTS_PER_MINUTE + 25; s++) batch.add(event(`s-${s}`), t);
    const fields = fieldsOf(batch);
    expect(fields.size).toBe(SUBJECTS_PER_MINUTE + 1);
    expect(fields.get(subjectField(0, "GET /x", ""))).toBe(25);
    // the cap is per tenant: another tenant still gets its own subjects
    batch.add(event("other", "t2"), t);
    expect(fieldsOf(batch, "t2").get(subjectField(0, "GET /x", "other"))).toBe(1);
    const next = new UsageBatch({ maxFields: 100_000, maxSubjects: 10, subjectSeries: admission });
    next.add(event("late-comer"), t + 60_000);
    expect(fieldsOf(next).get(subjectField(0, "GET /x", "late-comer"))).toBe(1);
  });

  it("bounds the fields of a tenant-minute across batches (random routes and seconds)", () => {
    const admission = new SubjectAdmission();
    const t = 60_000 * 3_000;
    const all = new Map<string, number>();
    for (let flush = 0; flush < 60; flush++) {
      const batch = new UsageBatch({ maxFields: 100_000, maxSubjects: 10, subjectSeries: admission });
      for (let i = 0; i < 500; i++) batch.add(event(`s-${i % 40}`, "t1", `GET /r${i}`), t + flush * 1_000);
      for (const [f, c] of fieldsOf(batch)) all.set(f, (all.get(f) ?? 0) + c);
    }
    const named = [...all.keys()].filter((f) => parseSubjectField(f)?.subject !== "");
    expect(named.length).toBeLessThanOrEqual(FIELDS_PER_MINUTE);
    expect([...all.values()].reduce((a, b) => a + b, 0)).toBe(60 * 500);
  });
});
