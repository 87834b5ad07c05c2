import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db } from "@/lib/control/data/db";
import { anyPlan, call, createAdminToken, putTenants, uniqueSlug } from "../admin/http";

// Below admin, the alert API shows a webhook URL's scheme and host only (a Slack-style
// hook's path is its secret) and a delivery error's kind only (the resolved address of an
// internal name is a DNS oracle). Admins and owners see both in full. Over HTTP against
// the running app; the dashboard page reads the same data functions.

const slug = uniqueSlug("al-mask");
const secretUrl = "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX";
const internalError =
  "vm resolves to 127.0.0.1, a private, loopback or link-local address (an operator can allow it)";
const tokens: Record<"viewer" | "editor" | "admin" | "owner", string> = {
  viewer: "",
  editor: "",
  admin: "",
  owner: "",
};
const base = `/api/admin/tenants/${slug}/alerts`;
let deliveryId = "";

interface Lists {
  endpoints: { name: string; url: string }[];
  deliveries: { id: string; lastError: string | null }[];
}

async function read(token: string): Promise<Lists> {
  const endpoints = await call<{ endpoints: Lists["endpoints"] }>("GET", `${base}/endpoints`, { token });
  const deliveries = await call<{ deliveries: Lists["deliveries"] }>("GET", `${base}/deliveries`, { token });
  expect(endpoints.status).toBe(200);
  expect(deliveries.status).toBe(200);
  // the apps' own evaluators may queue deliveries of this rule too: only the one made here
  const made = deliveries.body.deliveries.filter((d) => d.id === deliveryId);
  return { endpoints: endpoints.body.endpoints, deliveries: made };
}

beforeAll(async () => {
  await putTenants([{ slug, plan: await anyPlan() }]);
  for (const role of ["viewer", "editor", "admin", "owner"] as const)
    tokens[role] = await createAdminToken({ name: `mask ${role}`, role, tenant: slug });
  const made = await call<{ endpoint: { id: string } }>("POST", `${base}/endpoints`, {
    token: tokens.admin,
    body: { name: "slack", url: secretUrl, format: "slack" },
  });
  expect(made.status).toBe(201);
  const rule = await call<{ id: string }>("POST", `${base}/rules`, {
    token: tokens.admin,
    body: { name: "down", kind: "degraded", forSeconds: 60, endpoint: "slack" },
  });
  expect(rule.status).toBe(201);
  // a delivery as the worker records one refused by the guard
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug } });
  const incident = await db().alertIncident.create({
    data: { tenantId: tenant.id, ruleId: rule.body.id, value: 1 },
  });
  deliveryId = (
    await db().alertDelivery.create({
      data: {
        tenantId: tenant.id,
        endpointId: made.body.endpoint.id,
        ruleId: rule.body.id,
        incidentId: incident.id,
        event: "firing",
        payload: {},
        status: "failed",
        attempts: 1,
        lastError: internalError,
      },
    })
  ).id;
});

afterAll(async () => {
  await closeDb();
});

describe("alert URLs and delivery errors by role", () => {
  it.each(["viewer", "editor"] as const)(
    "a %s sees the URL's scheme and host and the error's kind",
    async (role) => {
      const seen = await read(tokens[role]);
      expect(seen.endpoints.map((e) => e.url)).toEqual(["https://hooks.slack.com/…"]);
      expect(seen.deliveries.map((d) => d.lastError)).toEqual(["refused: private address"]);
      const text = JSON.stringify(seen);
      expect(text).not.toContain("XXXXXXXX");
      expect(text).not.toContain("127.0.0.1");
    },
  );

  it.each(["admin", "owner"] as const)("an %s sees both in full", async (role) => {
    const seen = await read(tokens[role]);
    expect(seen.endpoints.map((e) => e.url)).toEqual([secretUrl]);
    expect(seen.deliveries.map((d) => d.lastError)).toEqual([internalError]);
  });

  it("the audit log shows a viewer the endpoint's scheme and host, an admin its URL", async () => {
    const audit = (token: string) => call("GET", `/api/admin/audit?tenant=${slug}`, { token });
    const forViewer = await audit(tokens.viewer);
    expect(forViewer.status).toBe(200);
    expect(forViewer.text).toContain("https://hooks.slack.com/…");
    expect(forViewer.text).not.toContain("XXXXXXXX");
    const forAdmin = await audit(tokens.admin);
    expect(forAdmin.text).toContain(secretUrl);
  });
});
