import "server-only";
import type { ConfigIndex } from "@/lib/check/config-index";
import { readLeaseToken } from "@/lib/check/lease/lease-token";
import { releaseScript } from "@/lib/check/limiter/script";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import type { ScriptClient } from "@/lib/shared/redis/script-client";
import { decisionSink } from "@/lib/check/decision-sink";

// Releasing leases (POST /api/check/release): one lua/concurrency-release.lua call per lease,
// its keys under one hash tag. Idempotent: a lease released twice, or expired, releases
// nothing the second time and is answered released: false, never an error. A release
// answered true is reported to the decision sink for the usage counts.

export type ReleaseResult =
  { ok: true; released: boolean } | { ok: false; status: 400 | 403 | 503; code: string; message: string };

const NOT_A_LEASE: ReleaseResult = {
  ok: false,
  status: 400,
  code: "invalid_request",
  message: "lease: not a lease token (give the lease a check answered, as it was)",
};

const UNAVAILABLE: ReleaseResult = {
  ok: false,
  status: 503,
  code: "store_unavailable",
  message: "Redis did not answer; the lease expires at its timeout if it is not released later.",
};

export class LeaseReleaser {
  private next = 0;

  constructor(private readonly clients: readonly ScriptClient[]) {}

  release(token: string, caller: Caller, config: ConfigIndex, done: (result: ReleaseResult) => void): void {
    const lease = readLeaseToken(token);
    if (lease === null) {
      done(NOT_A_LEASE);
      return;
    }
    const slug = config.snapshot.tenantSlugById[lease.tenantId];
    // a lease of a tenant deleted since: nothing left to release, as for an expired one
    if (slug === undefined) {
      done({ ok: true, released: false });
      return;
    }
    if (!mayCheck(caller, slug)) {
      done({
        ok: false,
        status: 403,
        code: "forbidden",
        message: `This service token may not check for tenant ${slug}, so it may not release its leases.`,
      });
      return;
    }
    const client = this.pick();
    if (client === null) {
      done(UNAVAILABLE);
      return;
    }
    client.run(releaseScript(), lease.keys, [lease.id], (error, reply) => {
      if (error !== null) {
        done(UNAVAILABLE);
        return;
      }
      const released = typeof reply === "number" && reply > 0;
      // counted as released, its expiry taken off; one answered false was counted expired (or released) already
      if (released && lease.usage !== null)
        decisionSink().leaseReleased?.({ tenantId: lease.tenantId, ...lease.usage });
      done({ ok: true, released });
    });
  }

  private pick(): ScriptClient | null {
    for (let tries = 0; tries < this.clients.length; tries++) {
      this.next = (this.next + 1) % this.clients.length;
      const client = this.clients[this.next] as ScriptClient;
      if (client.ready) return client;
    }
    return null;
  }
}
