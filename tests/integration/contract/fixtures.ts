// What the contract test needs on the running app: a tenant of its own with a small limit
// on a route, an API key, a service token for that tenant only, and a viewer's admin token.
import { anyPlan, call, createAdminToken, createKey, putTenants, uniqueSlug } from "../admin/http";

export interface ContractFixture {
  slug: string;
  otherSlug: string;
  apiKey: string;
  serviceToken: string;
  viewerToken: string;
}

export async function contractFixture(): Promise<ContractFixture> {
  const slug = uniqueSlug("contract");
  const otherSlug = uniqueSlug("contract-other");
  const plan = await anyPlan();
  await putTenants([
    {
      slug,
      plan,
      routes: [
        {
          pattern: "GET /v1/items/:id",
          limits: [{ name: "items", by: "tenant", algorithm: "fixed_window", limit: 2, window: "1h" }],
        },
      ],
    },
    { slug: otherSlug, plan },
  ]);
  const key = await createKey(slug, "contract-key");
  const service = await call<{ token: string }>("POST", "/api/admin/service-tokens", {
    body: { name: `contract ${slug}`, tenants: [slug] },
  });
  if (service.status !== 201) throw new Error(`service token: ${service.status} ${service.text}`);
  const viewerToken = await createAdminToken({ name: `viewer ${slug}`, role: "viewer", tenant: slug });
  return { slug, otherSlug, apiKey: key.key, serviceToken: service.body.token, viewerToken };
}
