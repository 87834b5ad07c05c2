import "server-only";
import { z } from "zod";

// The one reader of process.env: every setting is validated here once, and a bad one stops
// the process with a sentence that names it.

const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`);

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
  REDIS_PREFIX: z.string().regex(/^[a-z0-9:_-]{0,32}$/, "must be 0-32 of a-z 0-9 : _ -").default(""),
  PORT: intInRange(1, 65535, 3000),
  NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  NEXTAUTH_URL: url(["http:", "https:"]).optional(),
  SLUICE_BOOTSTRAP_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  SLUICE_ADMIN_EMAIL: z.email("must be an email address").optional(),
  SLUICE_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  SLUICE_CHECK_TIMEOUT_MS: intInRange(1, 10_000, 50),
  SLUICE_CONFIG_POLL_MS: intInRange(50, 60_000, 500),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    return source[name] === undefined && issue.code === "invalid_type"
      ? `${name} is not set`
      : `${name} ${issue.message}`;
  });
  throw new EnvError(`Bad settings: ${problems.join("; ")}.`);
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
