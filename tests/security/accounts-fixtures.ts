// Accounts for the security tests: real scrypt passwords, tenants through the same import
// the app uses, and raw HTTP to the running app from a chosen loopback source address
// (each test its own "client", so the login limits of one never reach another).
import { request } from "node:http";
import type { Principal, Role } from "@/lib/shared/principal";
import { hashPassword } from "@/lib/shared/password";
import { loadUserPrincipal } from "@/lib/control/data/auth/users";
import { db } from "@/lib/control/data/db";

export const APP_URL = process.env.APP_URL ?? "http://localhost:3100";
export type UserPrincipal = Extract<Principal, { kind: "user" }>;

export async function makeUser(
  email: string,
  password: string,
  memberships: { tenantId: string; role: Role }[] = [],
  isOperator = false,
): Promise<UserPrincipal> {
  const user = await db().user.create({
    data: {
      email,
      name: email,
      passwordHash: await hashPassword(password),
      isOperator,
      memberships: { create: memberships },
    },
  });
  const principal = await loadUserPrincipal(user.id);
  if (!principal) throw new Error("user vanished");
  return principal;
}

/** A fresh loopback address (127.x.y.z routes to lo on Linux): a client of its own. */
export function loopbackAddress(): string {
  const part = () => 1 + Math.floor(Math.random() * 250);
  return `127.${part()}.${part()}.${part()}`;
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawCall(
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const url = new URL(path, APP_URL);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: options.from,
        headers: { host: url.host, ...options.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const cookiesOf = (reply: RawReply): string[] =>
  ([] as string[]).concat(reply.headers["set-cookie"] ?? []).map((line) => line.split(";")[0] ?? "");

export interface SignInOutcome {
  /** the session cookie when signed in */
  cookie: string | null;
  /** next-auth's error code (CredentialsSignin, too_many_attempts...) when not */
  error: string | null;
}

/** One credentials sign-in through next-auth, as the login form does it. */
export async function signIn(
  email: string,
  password: string,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<SignInOutcome> {
  const csrf = await rawCall("GET", "/api/auth/csrf", { from: options.from });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const reply = await rawCall("POST", "/api/auth/callback/credentials", {
    from: options.from,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: jar.join("; "),
      ...options.headers,
    },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }).toString(),
  });
  const session = cookiesOf(reply).find((c) => c.includes("session-token="));
  if (session) return { cookie: [...jar, session].join("; "), error: null };
  // With json=true next-auth answers { url } (401 for a refused sign-in), the error in its query.
  let url: string | undefined =
    typeof reply.headers.location === "string" ? reply.headers.location : undefined;
  try {
    url = (JSON.parse(reply.body) as { url?: string }).url ?? url;
  } catch {
    // not JSON: keep the redirect's location
  }
  const error = url ? new URL(String(url), APP_URL).searchParams.get("error") : null;
  return { cookie: null, error: error ?? `status ${reply.status}` };
}
