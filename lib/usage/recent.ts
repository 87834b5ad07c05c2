import "server-only";
import { z } from "zod";
import type { Outcome, UsageEvent } from "@/lib/usage/types";

// A bounded sample of each tenant's latest decisions, for the identifier lookup and the
// decision log: per flush, the latest RECENT_PER_TENANT decisions and as many denials and
// degraded answers of each tenant; Redis keeps the last LOG_PER_TENANT of each list per
// tenant (its own keys: a busy tenant never evicts another's). On the check path this is a few array slots
// written per decision (references to strings the event already has, and its time); the
// flush turns the slots into entries and names the limit that denied (parsing the answer's
// JSON of the few denials kept, off the check path). A ring does not hold the event itself,
// which would keep every answer's JSON body alive past the young generation (a large share
// of the front's GC work, docs/architecture.md); only a denial's body is kept.

type RecentEvent = UsageEvent;

const OUTCOMES = ["allowed", "rejected", "shadow_rejected", "degraded"] as const satisfies readonly Outcome[];

/** One sampled decision as kept in Redis (read back by the identifier lookup). */
export const recentEntrySchema = z.object({
  at: z.number(),
  keyId: z.string().nullable(),
  route: z.string().nullable(),
  subject: z.string().nullable(),
  outcome: z.enum(OUTCOMES),
  reason: z.string(),
  /** the enforce limit that denied it, when a limit did */
  deniedBy: z.string().nullable(),
});
export type RecentEntry = z.output<typeof recentEntrySchema>;

/** Entries sampled per tenant per flush (once a second) into each ring (decisions, denials). */
export const RECENT_PER_TENANT = 50;

/** Entries kept per tenant in each Redis list (decisions; denials and degraded answers). */
export const LOG_PER_TENANT = 500;

/** A quiet tenant's sample stays readable this long after its last decision. */
export const RECENT_TTL_SECONDS = 86_400;

function isDenial(outcome: Outcome): boolean {
  return outcome === "rejected" || outcome === "shadow_rejected";
}

class Ring {
  private readonly keyIds: (string | null)[];
  private readonly routes: (string | null)[];
  private readonly subjects: (string | null)[];
  private readonly outcomes: Outcome[];
  private readonly reasons: (string | undefined)[];
  /** the bodies of denials only (to name the limit that denied) */
  private readonly bodies: (string | undefined)[];
  private readonly times: Float64Array;
  private next = 0;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.keyIds = new Array<string | null>(capacity).fill(null);
    this.routes = new Array<string | null>(capacity).fill(null);
    this.subjects = new Array<string | null>(capacity).fill(null);
    this.outcomes = new Array<Outcome>(capacity).fill("allowed");
    this.reasons = new Array<string | undefined>(capacity).fill(undefined);
    this.bodies = new Array<string | undefined>(capacity).fill(undefined);
    this.times = new Float64Array(capacity);
  }

  push(event: RecentEvent, at: number): void {
    const i = this.next;
    this.keyIds[i] = event.keyId;
    this.routes[i] = event.route;
    this.subjects[i] = event.subject;
    this.outcomes[i] = event.outcome;
    this.reasons[i] = event.reason;
    this.bodies[i] = isDenial(event.outcome) ? event.body : undefined;
    this.times[i] = at;
    // a compare, not a modulo: this runs once per decision
    if (++this.next === this.capacity) this.next = 0;
    if (this.size < this.capacity) this.size++;
  }

  /** Oldest first. */
  entries(): RecentEntry[] {
    const out: RecentEntry[] = [];
    for (let n = 0; n < this.size; n++) {
      const i = (this.next - this.size + n + this.capacity) % this.capacity;
      const outcome = this.outcomes[i] as Outcome;
      out.push({
        at: this.times[i] ?? 0,
        keyId: this.keyIds[i] ?? null,
        route: this.routes[i] ?? null,
        subject: this.subjects[i] ?? null,
        outcome,
        reason: this.reasons[i] ?? outcome,
        deniedBy: isDenial(outcome) ? deniedBy(this.bodies[i]) : null,
      });
    }
    return out;
  }
}

const answerLimits = z.object({
  limits: z.array(z.object({ name: z.unknown(), allowed: z.unknown(), mode: z.unknown() })).optional(),
});

/** The first enforce limit the answer reports as not allowed. */
export function deniedBy(body: string | undefined): string | null {
  if (body === undefined) return null;
  try {
    const parsed = answerLimits.safeParse(JSON.parse(body));
    const denying = parsed.data?.limits?.find((l) => l.allowed === false && l.mode !== "shadow");
    return typeof denying?.name === "string" ? denying.name : null;
  } catch {
    return null;
  }
}

export interface TenantRecent {
  decisions: RecentEntry[];
  denials: RecentEntry[];
}

interface Rings {
  tenantId: string;
  all: Ring;
  denied: Ring;
}

export class RecentDecisions {
  private tenants = new Map<string, Rings>();
  /** the last tenant added to: traffic comes in runs of one tenant, so this skips the Map */
  private last: Rings | null = null;

  constructor(private readonly capacity: number) {}

  add(event: RecentEvent, at: number): void {
    let rings = this.last;
    if (rings === null || rings.tenantId !== event.tenantId) {
      rings = this.tenants.get(event.tenantId) ?? null;
      if (rings === null) {
        rings = { tenantId: event.tenantId, all: new Ring(this.capacity), denied: new Ring(this.capacity) };
        this.tenants.set(event.tenantId, rings);
      }
      this.last = rings;
    }
    rings.all.push(event, at);
    // the second ring keeps what a log reader looks for among many allowed answers
    if (event.outcome === "rejected" || event.outcome === "degraded") rings.denied.push(event, at);
  }

  /** One tenant's sample, oldest first (so LPUSH leaves the newest at the head). */
  drainTenant(tenantId: string): TenantRecent | null {
    const rings = this.tenants.get(tenantId);
    if (!rings) return null;
    this.tenants.delete(tenantId);
    if (this.last === rings) this.last = null;
    return { decisions: rings.all.entries(), denials: rings.denied.entries() };
  }
}
