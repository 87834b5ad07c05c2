// Hostile configuration documents against the running app: a 2 MB JSON array of numbers is
// refused by the value bound at once (413 naming the body's line), two at once leave the
// app answering, and one principal's second concurrent import or preview is 409.
import { describe, expect, it } from "vitest";
import { call, type ErrorReply } from "./http";

const numbers = "[" + Array.from({ length: 1_040_001 }, (_, i) => String(i % 10)).join(",") + "]";
// 60,000 unknown fields of one tenant: within the bounds, so parsed and validated (in the worker)
const manyKeys =
  "tenants:\n  - slug: nobody\n" + Array.from({ length: 60_000 }, (_, i) => `    k${i}: 1`).join("\n") + "\n";

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("hostile documents", () => {
  it("answers the 2 MB JSON array of numbers with 413 fast, twice at once, and stays up", async () => {
    const put = () =>
      timed(() => call<ErrorReply>("PUT", "/api/admin/config?dryRun=true", { body: numbers }));
    const replies = await Promise.all([put(), put()]);
    for (const { value, ms } of replies) {
      // the same principal's second call may be the one-at-a-time refusal instead
      expect([409, 413]).toContain(value.status);
      expect(ms).toBeLessThan(5_000);
    }
    const refused = replies.map((r) => r.value).find((r) => r.status === 413);
    expect(refused?.body.error).toMatchObject({ code: "payload_too_large", path: "body" });
    expect(refused?.body.error.message).toMatch(/line 1: the document has more than \d+ values/);
    expect((await call("GET", "/api/admin/config")).status).toBe(200);
  }, 30_000);

  it("refuses one principal's second concurrent preview with 409 import_in_progress", async () => {
    const sentAt = performance.now();
    const preview = () =>
      call<ErrorReply>("PUT", "/api/admin/config?dryRun=true", {
        body: manyKeys,
        contentType: "application/yaml",
      }).then((reply) => ({ ...reply, ms: performance.now() - sentAt }));
    const replies = await Promise.all([preview(), preview()]);
    const statuses = replies.map((r) => r.status).sort();
    // the first is answered with its errors, or past the worker's deadline on a loaded machine
    expect(statuses[0]).toBe(409);
    expect([413, 422]).toContain(statuses[1]);
    const busy = replies.find((r) => r.status === 409);
    expect(busy?.body.error.code).toBe("import_in_progress");
    expect(busy?.headers.get("retry-after")).toBe("2");
    // held a quarter of a second before the body is read: a loop ignoring Retry-After
    // cannot upload a document every few milliseconds
    expect(busy?.ms).toBeGreaterThanOrEqual(240);
    const answered = replies.find((r) => r.status !== 409);
    if (answered?.status === 422) {
      // the first 200 errors by path, and the count of all: not a 9 MB answer
      expect(answered.body.error.message).toMatch(
        /^The document has 600\d\d errors \(the first 200 are listed\); nothing was changed\.$/,
      );
      expect(answered.text).toMatch(/tenants\[0\]\.k0/);
      expect(answered.text.length).toBeLessThan(64 * 1024);
    } else expect(answered?.body.error).toMatchObject({ code: "payload_too_large", path: "body" });
    expect((await call("GET", "/api/admin/config")).status).toBe(200);
  }, 60_000);
});
