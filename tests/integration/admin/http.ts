// A small client for the running app's admin API (APP_URL), with the bootstrap token by
// default. Every admin test file talks HTTP through this and nothing else.
import { randomBytes } from "node:crypto";

export const APP_URL = process.env.APP_URL ?? "http://localhost:3100";
export const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface CallOptions {
  /** bearer token; null sends none */
  token?: string | null;
  /** a JSON body (or a string sent as is) */
  body?: unknown;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
}

export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? BOOTSTRAP : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.accept) headers.accept = options.accept;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] = options.contentType ?? "application/json";
  }
  const response = await fetch(`${APP_URL}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

/** A slug no other test file or the demo data uses. */
export function uniqueSlug(label: string): string {
  return `adm-${label}-${randomBytes(4).toString("hex")}`;
}

export interface ErrorReply {
  error: { code: string; message: string; path?: string };
  errors?: { path: string; message: string }[];
}

export interface ImportReply {
  configVersion: number | null;
  changes: { action: string; target: string; name: string }[];
}

export interface Doc {
  plans?: { name: string; limits: Record<string, unknown>[] }[];
  routes?: unknown[];
  tenants?: TenantDoc[];
}

export interface TenantDoc {
  slug: string;
  name?: string;
  plan: string;
  status?: string;
  limits?: Record<string, unknown>[];
  routes?: unknown[];
  keys?: { name: string; limits: Record<string, unknown>[] }[];
}

/** Whole export as JSON (bootstrap unless a token is given). */
export async function exportJson(token: string = BOOTSTRAP): Promise<Doc> {
  const reply = await call<Doc>("GET", "/api/admin/config", { token });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return reply.body;
}

export async function importJson(
  doc: Doc,
  query = "",
  token: string = BOOTSTRAP,
): Promise<Reply<ImportReply & ErrorReply>> {
  return call<ImportReply & ErrorReply>("PUT", `/api/admin/config${query}`, { token, body: doc });
}

/**
 * A plan name to put test tenants on: any existing plan (tests never change plans), or,
 * on a database without any, a plan of our own (then no one else's plan is touched).
 */
export async function anyPlan(): Promise<string> {
  const current = await exportJson();
  const first = current.plans?.[0]?.name;
  if (first) return first;
  const reply = await importJson({ plans: [{ name: "adm-plan", limits: [] }] });
  if (reply.status !== 200) throw new Error(`plan: ${reply.status} ${reply.text}`);
  return "adm-plan";
}

/**
 * Overrides that switch off every limit of the plan for one tenant (docs/configuration.md:
 * `disabled: true`), so counting tests see only their own limits, whatever the plan holds.
 */
export async function planLimitsOff(plan: string): Promise<Record<string, unknown>[]> {
  const current = await exportJson();
  const limits = current.plans?.find((p) => p.name === plan)?.limits ?? [];
  return limits.map((limit) => ({ name: limit.name, disabled: true }));
}

/** Creates (or updates) the tenants exactly as given, through the admin API. */
export async function putTenants(tenants: TenantDoc[]): Promise<ImportReply> {
  const reply = await importJson({ tenants });
  if (reply.status !== 200) throw new Error(`import: ${reply.status} ${reply.text}`);
  return reply.body;
}

export async function createKey(
  slug: string,
  name: string,
  token: string = BOOTSTRAP,
): Promise<{ id: string; key: string; prefix: string; name: string }> {
  const reply = await call<{ id: string; key: string; prefix: string; name: string }>(
    "POST",
    `/api/admin/tenants/${slug}/keys`,
    { token, body: { name } },
  );
  if (reply.status !== 201) throw new Error(`key: ${reply.status} ${reply.text}`);
  return reply.body;
}

export async function createAdminToken(
  body: { name: string; role: string; tenant?: string },
  token: string = BOOTSTRAP,
): Promise<string> {
  const reply = await call<{ token: string }>("POST", "/api/admin/admin-tokens", { token, body });
  if (reply.status !== 201) throw new Error(`admin token: ${reply.status} ${reply.text}`);
  return reply.body.token;
}
