import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// concurrency: at most L leases held at once (checks in flight); a lease ends when the
// caller releases it or W ms (the lease timeout) after it was taken. A sorted set of
// leases per limit and identity. Script part: lua/algorithms/concurrency.lua.

export const concurrency: AlgorithmCodec = {
  algorithm: "concurrency",
  tag: "c",
  args: limitArgs,
};
