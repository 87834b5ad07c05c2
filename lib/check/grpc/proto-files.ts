import "server-only";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSync, type Options } from "@grpc/proto-loader";
import type { ServiceDefinition } from "@grpc/grpc-js";

// Envoy's rate limit service as Sluice serves it, from the project's proto/ (a wire-compatible
// subset of Envoy's files, names and field numbers as upstream's). proto/ is found like lua/
// (lib/shared/redis/lua-files.ts): the nearest one above this module, which is the project's
// from the sources and from the bundled front (.next/sluice/).

export const RLS_PROTO = "envoy/service/ratelimit/v3/rls.proto";
export const RLS_SERVICE = "envoy.service.ratelimit.v3.RateLimitService";

/**
 * How messages are read and written: field names as in the .proto (snake_case), enums as
 * their names, 64-bit integers as numbers (a hits_addend past 2^53 is refused anyway), only
 * the fields present (a wrapper holding 0 reads as `{}`), repeated fields always arrays.
 */
export const RLS_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: false,
  arrays: true,
  oneofs: false,
};

let found: string | undefined;

/** The project's proto/ directory; throws when no directory above this module holds it. */
export function protoDir(): string {
  if (found) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, "proto");
    if (existsSync(join(candidate, RLS_PROTO))) return (found = candidate);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`no proto/ directory with ${RLS_PROTO} above ${start}`);
}

/** RateLimitService's definition, ready for a grpc-js server's addService. */
export function rateLimitService(): ServiceDefinition {
  const definition = loadSync(RLS_PROTO, { ...RLS_LOADER_OPTIONS, includeDirs: [protoDir()] });
  return definition[RLS_SERVICE] as ServiceDefinition;
}
