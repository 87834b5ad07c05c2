import { closeClients, FREE_PLAN_OFF, setupTenants, type Tenants, type TenantSpec } from "../check/setup";
import { APP_URL, APP_URL_2, BOOTSTRAP, waitForVersion } from "../check/http";
import { closeRlsClients, type Descriptor } from "./rls-client";

// What the Envoy files set up alike: an Envoy domain is a tenant, each descriptor one check on
// the route `POST /key/value/...`, so a file's limits are a free tenant's routes.

/** Calls as the bootstrap operator token. */
export const auth = { authorization: `Bearer ${BOOTSTRAP}` };

/** A descriptor of one generic_key entry (the route `* /generic_key/<value>`). */
export const generic = (value: string): Descriptor => ({ entries: [{ key: "generic_key", value }] });

type Routes = NonNullable<TenantSpec["routes"]>;

/** The tenant `domain` on the free plan with its plan limits off and these routes, plus others. */
export function setupDomain(domain: string, routes: Routes, others: TenantSpec[] = []): Promise<Tenants> {
  return setupTenants([{ slug: domain, plan: "free", limits: FREE_PLAN_OFF, routes }, ...others]);
}

/** setupDomain, then waits until both of the harness's apps serve what it published. */
export async function publishDomain(
  domain: string,
  routes: Routes,
  others: TenantSpec[] = [],
): Promise<void> {
  const setup = await setupDomain(domain, routes, others);
  await waitForVersion(setup.version, APP_URL);
  await waitForVersion(setup.version, APP_URL_2);
}

/** Closes the gRPC clients and the test's own Redis and database clients. */
export async function closeEnvoyClients(): Promise<void> {
  closeRlsClients();
  await closeClients();
}
