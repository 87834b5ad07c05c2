// Outside Next's bundler, `server-only` throws on import. Node processes that run server
// modules directly (the custom server, seed, benchmarks) load this hook so it resolves to
// an empty module instead; Next's own bundles keep the real guard.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(
      `export async function resolve(spec, ctx, next) {
        if (spec === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
        return next(spec, ctx);
      }`,
    ),
  import.meta.url,
);
