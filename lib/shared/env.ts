import "server-only";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { parseTrustedProxies } from "@/lib/shared/http/trusted-proxies";

// The one reader of process.env: every setting is validated here once, and a bad one stops
// the process with a sentence that names it.

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  );

const intInRange = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  REDIS_URL: url(["redis:", "rediss:"]).default("redis://127.0.0.1:63799"),
  // "host:port,host:port": talk to a Redis Cluster through these seed nodes instead of REDIS_URL.
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, "must be host:port[,host:port...]")
    .optional(),
  // "host:port,host:port": find the Redis master through these Redis Sentinels (the group
  // REDIS_SENTINEL_NAME) instead of REDIS_URL, whose user, password and db still apply.
  REDIS_SENTINELS: z
    .string()
    .regex(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, "must be host:port[,host:port...]")
    .optional(),
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 of A-Z a-z 0-9 . _ -")
    .default("mymaster"),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]{0,32}$/, "must be 0-32 of a-z 0-9 : _ -")
    .default(""),
  PORT: intInRange(1, 65535, 3000),
  // The address the app listens on; unset: every interface. Test and benchmark runs use 127.0.0.1.
  SLUICE_LISTEN_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]{1,253}$/, "must be an IP address or a host name")
    .optional(),
  // Envoy's rate limit service (gRPC ShouldRateLimit, docs/envoy.md) on this port of the check
  // front, on SLUICE_LISTEN_HOST too; unset: off.
  SLUICE_GRPC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  NEXTAUTH_URL: url(["http:", "https:"]).optional(),
  SLUICE_BOOTSTRAP_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  SLUICE_ADMIN_EMAIL: z.email("must be an email address").optional(),
  SLUICE_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  // Optional single sign-on (OpenID Connect): all three of issuer, client id and secret, or none.
  OIDC_ISSUER: url(["https:", "http:"]).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(60).default("Single sign-on"),
  // Proxies in front of the app: a hop count or a comma-separated list of addresses/CIDRs.
  // Unset: the socket's peer is the client, X-Forwarded-* headers are ignored.
  SLUICE_TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((value, context) => {
      const parsed = parseTrustedProxies(value);
      if (typeof parsed === "string") context.addIssue({ code: "custom", message: parsed });
    }),
  SLUICE_CHECK_TIMEOUT_MS: intInRange(1, 10_000, 50),
  // Fair share of a check front (lib/enforce/fair): checks in flight before work queues per
  // caller, and the most checks one caller may have waiting (beyond: 429).
  SLUICE_CHECK_WINDOW: intInRange(64, 100_000, 256),
  SLUICE_CHECK_QUEUE: intInRange(1_000, 1_000_000, 3_000),
  SLUICE_CONFIG_POLL_MS: intInRange(50, 60_000, 500),
  // Local limits (consistency: local): counters (limit x identity) kept in memory per server.
  SLUICE_LOCAL_LIMIT_IDENTITIES: intInRange(1, 10_000_000, 100_000),
  // Usage recording (lib/usage): "off" turns the per-decision counters off (benchmarks compare).
  SLUICE_USAGE_RECORDING: z.enum(["on", "off"]).default("on"),
  // Retention of usage data, in seconds: per-second series in Redis, minute, hour and day
  // rows, and the minutes' key x route pairs (kept until their hour is rolled up, at least).
  SLUICE_USAGE_SECONDS_RETENTION: intInRange(300, 86_400, 3_600),
  SLUICE_USAGE_MINUTES_RETENTION: intInRange(3_600, 315_360_000, 7 * 86_400),
  SLUICE_USAGE_HOURS_RETENTION: intInRange(86_400, 315_360_000, 90 * 86_400),
  SLUICE_USAGE_DAYS_RETENTION: intInRange(86_400, 3_153_600_000, 3 * 365 * 86_400),
  SLUICE_USAGE_PAIR_MINUTES_RETENTION: intInRange(3_600, 604_800, 3 * 3_600),
  // Near-limit alerts (lib/control/alerts, docs/alerts.md): how often rules are evaluated and due
  // webhooks sent, the first retry's delay (doubling after each failure), attempts before a
  // delivery fails, each attempt's timeout, and whether every endpoint may reach private,
  // loopback and link-local addresses ("on": trusted networks only; default per endpoint).
  SLUICE_ALERT_EVAL_MS: intInRange(200, 3_600_000, 15_000),
  SLUICE_ALERT_RETRY_BASE_MS: intInRange(100, 3_600_000, 10_000),
  SLUICE_ALERT_MAX_ATTEMPTS: intInRange(1, 20, 6),
  SLUICE_ALERT_TIMEOUT_MS: intInRange(100, 60_000, 5_000),
  SLUICE_ALERT_ALLOW_PRIVATE: z.enum(["on", "off"]).default("off"),
  // Count caps (lib/data/count-caps.ts): no tenant grows the config, snapshot or Redis unbounded.
  SLUICE_MAX_ROUTES_PER_TENANT: intInRange(1, 100_000, 200),
  SLUICE_MAX_LIMITS_PER_TENANT: intInRange(1, 1_000_000, 500),
  SLUICE_MAX_KEYS_PER_TENANT: intInRange(1, 1_000_000, 1_000),
  SLUICE_MAX_LIMITS_TOTAL: intInRange(1, 10_000_000, 20_000),
  // allow and deny list entries (both lists together) of one tenant, and of the global lists
  SLUICE_MAX_LIST_ENTRIES_PER_TENANT: intInRange(0, 1_000_000, 10_000),
  SLUICE_MAX_LIST_ENTRIES_GLOBAL: intInRange(0, 1_000_000, 100_000),
  // Slow clients: a request head and body must arrive within this (then 408); open
  // connections per process (the check front and the app each): at the cap the longest quiet
  // idle one is closed to make room, and a new one is closed only when none is idle.
  SLUICE_REQUEST_TIMEOUT_MS: intInRange(1_000, 300_000, 10_000),
  SLUICE_MAX_CONNECTIONS: intInRange(16, 1_000_000, 4_096),
  // Connections (lib/enforce/http/front/connection-admission.ts): one that sends nothing is
  // closed after the first-byte timeout; at most so many per client address (the socket's
  // peer: behind a load balancer, the balancer's), in each process.
  SLUICE_FIRST_BYTE_TIMEOUT_MS: intInRange(100, 300_000, 5_000),
  SLUICE_MAX_CONNECTIONS_PER_ADDRESS: intInRange(1, 1_000_000, 256),
  // V8 heap caps, MiB (docs/deployment.md, "Memory"): the front's is given on its command
  // line by `npm start` (a running process cannot change its own); the app process gets its
  // own when the front starts it.
  SLUICE_FRONT_HEAP_MB: intInRange(64, 65_536, 512),
  SLUICE_APP_HEAP_MB: intInRange(128, 65_536, 1_024),
  // Check processes sharing the port (node:cluster): a number, or "auto" for one per core.
  SLUICE_WORKERS: z
    .string()
    .regex(/^(auto|[1-9]|[1-5][0-9]|6[0-4])$/, "must be a number of processes from 1 to 64, or auto")
    .default("1"),
  // Set by the primary for each of its check workers (not a user setting): the worker's private socket.
  SLUICE_WORKER_SOCKET: z.string().min(1).optional(),
});

const OidcComplete = EnvSchema.refine(
  (e) =>
    [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].every((v) => v === undefined) ||
    [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].every((v) => v !== undefined),
  { path: ["OIDC_ISSUER"], message: "and OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together" },
);

const OneTopology = OidcComplete.refine((e) => !(e.REDIS_SENTINELS && e.REDIS_CLUSTER_NODES), {
  path: ["REDIS_SENTINELS"],
  message: "and REDIS_CLUSTER_NODES cannot both be set (Sentinel or Cluster, not both)",
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = OneTopology.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    return source[name] === undefined && issue.code === "invalid_type"
      ? `${name} is not set`
      : `${name} ${issue.message}`;
  });
  throw new EnvError(`Bad settings: ${problems.join("; ")}.`);
}

/** SLUICE_WORKERS as a count ("auto": the cores this process may use). */
export function workerCount(setting: string, cores: number = availableParallelism()): number {
  return setting === "auto" ? Math.max(1, cores) : Number(setting);
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
