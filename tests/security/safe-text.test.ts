import { afterAll, describe, expect, it } from "vitest";
import { parseCheck } from "@/lib/check/body-schema";
import { isSafeText } from "@/lib/shared/safe-text";

// NUL characters or lone surrogates in a text field (tenant name, token name,
// reset subject...) gave a 500 (PostgreSQL refuses NUL) or were stored mangled; now a 4xx
// naming the field, and nothing changed. The admin API's handlers and the dashboard's
// actions run in process, against the test database (bootstrap token as operator).

const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
const BAD: Array<[string, string]> = [
  ["NUL", "a\u0000b"],
  ["a lone high surrogate", "a\ud800b"],
  ["a lone low surrogate", "a\udc00b"],
];

afterAll(async () => {
  const { closeDb } = await import("@/lib/control/data/db");
  const { closeRedis } = await import("@/lib/shared/redis/redis");
  await Promise.allSettled([closeDb(), closeRedis()]);
});

interface ErrorJson {
  error: { code: string; message: string; path?: string };
  errors?: Array<{ path: string; message: string }>;
}

async function call<P>(
  handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>,
  method: string,
  body: unknown,
  params: P,
): Promise<{ status: number; body: ErrorJson }> {
  const response = await handler(
    new Request("http://localhost/api/admin/x", {
      method,
      headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
      body: method === "GET" ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
  return { status: response.status, body: (await response.json()) as ErrorJson };
}

describe("the shared rule", () => {
  it("refuses NUL and lone surrogates, keeps every other text (emoji, accents)", () => {
    for (const [, bad] of BAD) expect(isSafeText(bad)).toBe(false);
    for (const good of ["", "Acme GmbH", "Zoë ☕", "😀 pair", "tab\tok"]) expect(isSafeText(good)).toBe(true);
  });
});

describe.each(BAD)("%s", (_what, bad) => {
  it("in a service token's name: 400 naming name, no token made", async () => {
    const { POST } = await import("@/app/api/admin/service-tokens/route");
    const answer = await call(POST, "POST", { name: bad }, {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", path: "name" });
    expect(answer.body.error.message).toContain("name");
  });

  it("in a tenant's display name (config import): 422 naming tenants[0].name", async () => {
    const { PUT } = await import("@/app/api/admin/config/route");
    const answer = await call(
      PUT,
      "PUT",
      { tenants: [{ slug: "safe-text-t", name: bad, plan: "free", limits: [], routes: [], keys: [] }] },
      {},
    );
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.map((e) => e.path)).toContain("tenants[0].name");
  });

  it("in a reset's subject: 400 naming subject", async () => {
    const { POST } = await import("@/app/api/admin/reset/route");
    const answer = await call(POST, "POST", { tenant: "acme", limit: "tenant-rpm", subject: bad }, {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", path: "subject" });
  });

  it("in a path parameter (tenant slug): 400 naming it", async () => {
    const { GET } = await import("@/app/api/admin/tenants/[slug]/keys/route");
    const answer = await call(GET, "GET", undefined, { slug: bad });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", path: "slug" });
  });

  it("in dashboard forms: the field is named and nothing is saved", async () => {
    const { createServiceTokenAction } = await import("@/app/(dashboard)/_actions/token-actions");
    const { updateTenantAction } = await import("@/app/(dashboard)/_actions/tenant-actions");
    const token = await createServiceTokenAction({ name: bad });
    expect(token).toMatchObject({ ok: false });
    expect(token.ok === false && token.fieldErrors?.name).toBeTruthy();
    const tenant = await updateTenantAction({ slug: "acme", name: bad, plan: "pro", status: "active" });
    expect(tenant.ok === false && tenant.fieldErrors?.name).toBeTruthy();
  });

  it("in a check's subject or route: 400 naming the field", () => {
    expect(parseCheck({ tenant: "acme", subject: bad })).toMatchObject({
      ok: false,
      error: { path: "subject" },
    });
    expect(parseCheck({ tenant: "acme", route: `GET /v1/${bad}` })).toMatchObject({
      ok: false,
      error: { path: "route" },
    });
    expect(parseCheck({ tenant: "acme", subject: "😀" })).toMatchObject({ ok: true });
  });
});
