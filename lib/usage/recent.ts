import "server-only";
import type { Outcome, UsageEvent } from "@/lib/usage/types";

// A bounded sample of each tenant's latest decisions, for the identifier lookup: the last N
// decisions and the last N denials per tenant. On the check path this is one array slot
// written per decision (a reference to the event the sink already has, and its time); the
// flush turns the slots into entries and names the limit that denied (parsing the answer's
// JSON of the few denials kept, off the check path).

type RecentEvent = UsageEvent;

export interface RecentEntry {
  at: number;
  keyId: string | null;
  route: string | null;
  subject: string | null;
  outcome: Outcome;
  reason: string;
  /** the enforce limit that denied it, when a limit did */
  deniedBy: string | null;
}

/** Entries kept per tenant in each Redis list (decisions, denials). */
export const RECENT_PER_TENANT = 50;

class Ring {
  private readonly events: (RecentEvent | undefined)[];
  private readonly times: Float64Array;
  private next = 0;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.events = new Array<RecentEvent | undefined>(capacity);
    this.times = new Float64Array(capacity);
  }

  push(event: RecentEvent, at: number): void {
    this.events[this.next] = event;
    this.times[this.next] = at;
    // a compare, not a modulo: this runs once per decision
    if (++this.next === this.capacity) this.next = 0;
    if (this.size < this.capacity) this.size++;
  }

  /** Oldest first. */
  entries(): RecentEntry[] {
    const out: RecentEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const slot = (this.next - this.size + i + this.capacity) % this.capacity;
      const event = this.events[slot];
      if (event) out.push(entryOf(event, this.times[slot] ?? 0));
    }
    return out;
  }
}

/** The first enforce limit the answer reports as not allowed. */
export function deniedBy(body: string | undefined): string | null {
  if (body === undefined) return null;
  try {
    const parsed = JSON.parse(body) as { limits?: { name?: unknown; allowed?: unknown; mode?: unknown }[] };
    const denying = parsed.limits?.find((l) => l.allowed === false && l.mode !== "shadow");
    return typeof denying?.name === "string" ? denying.name : null;
  } catch {
    return null;
  }
}

function entryOf(event: RecentEvent, at: number): RecentEntry {
  const denied = event.outcome === "rejected" || event.outcome === "shadow_rejected";
  return {
    at,
    keyId: event.keyId,
    route: event.route,
    subject: event.subject,
    outcome: event.outcome,
    reason: event.reason ?? event.outcome,
    deniedBy: denied ? deniedBy(event.body) : null,
  };
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
    if (event.outcome === "rejected") rings.denied.push(event, at);
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
