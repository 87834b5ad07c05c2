"use client";
import "@/components/styles/ops-tools.css";

import Link from "next/link";
import { createContext, useContext, type ReactNode } from "react";
import type { LiveCounter, LiveUtilization } from "@/lib/control/counters/live-utilization";
import { usePolledJson } from "@/components/live/use-polled-json";
import { Meter } from "@/components/ops/limit-counter";
import { OverrideBadge } from "@/components/ops/override-badge";
import { useTimeZone } from "@/components/charts/time-zone-context";
import { formatWhole } from "@/lib/shared/format-count";

// Current utilization beside each limit of the Limits tab: the page renders the first read,
// then this polls /api/live-utilization every 5 s (the lookup's pace, slower than the
// charts: it reads counters, not rollups). Each row's cell picks its own counter(s). The
// counters are measured against the limits in force now: a temporary override's value, with
// its badge, a block as full and a disabled limit as not evaluated (docs/overrides.md).

const EVERY_MS = 5_000;

interface Live {
  slug: string;
  live: LiveUtilization | null;
  error: string | null;
}

const LiveContext = createContext<Live | null>(null);

export function LiveUtilizationProvider({
  slug,
  initial,
  children,
}: {
  slug: string;
  initial: LiveUtilization | null;
  children: ReactNode;
}) {
  const polled = usePolledJson<LiveUtilization | null>(
    `/api/live-utilization?tenant=${encodeURIComponent(slug)}`,
    initial,
    { everyMs: EVERY_MS },
  );
  return (
    <LiveContext.Provider value={{ slug, live: polled.data, error: polled.error }}>
      {children}
    </LiveContext.Provider>
  );
}

/** A short line for the panel: whether the "Now" column is live, and what it leaves out. */
export function LiveUtilizationStatus() {
  const ctx = useContext(LiveContext);
  if (!ctx) return null;
  if (ctx.live === null || ctx.error)
    return (
      <p className="muted" data-testid="live-status-line">
        Live counters cannot be read right now (Redis did not answer); retrying every 5 s.
      </p>
    );
  return (
    <p className="muted small" data-testid="live-status-line">
      &quot;Now&quot; is each counter&apos;s use of its limit, read every 5 s (nothing consumed).
      {ctx.live.leftOut > 0 && ` ${ctx.live.leftOut} counters of further keys are not read.`}
    </p>
  );
}

/**
 * The counter of one limit row. `owner` is "tenant" for the tenant's rows (a per-key limit
 * there shows its busiest key) or a key's name for that key's rows.
 */
export function UtilizationCell({
  name,
  route,
  by,
  owner,
}: {
  name: string;
  route: string | null;
  by: string | undefined;
  owner: string;
}) {
  const ctx = useContext(LiveContext);
  if (!ctx || ctx.live === null) return <span className="muted">—</span>;
  if (by === "subject")
    return (
      <Link className="small" href={`/tenants/${ctx.slug}/lookup`}>
        per subject: look one up
      </Link>
    );
  const top = countersOf(ctx.live, name, route, by, owner).reduce<LiveCounter | null>(
    (best, c) => (best === null || usedShare(c) > usedShare(best) ? c : best),
    null,
  );
  if (top === null) return <span className="muted">no counter yet</span>;
  return <UtilizationBar counter={top} busiest={owner === "tenant" && top.owner !== "tenant"} />;
}

/** The live counters of one limit row (see UtilizationCell), for the cells that read them. */
export function useRowCounters(name: string, route: string | null, by: string | undefined, owner: string) {
  const ctx = useContext(LiveContext);
  return ctx?.live ? countersOf(ctx.live, name, route, by, owner) : [];
}

function countersOf(
  live: LiveUtilization,
  name: string,
  route: string | null,
  by: string | undefined,
  owner: string,
): LiveCounter[] {
  return live.counters.filter(
    (c) =>
      c.name === name &&
      c.route === route &&
      (by === "tenant" ? c.owner === "tenant" : owner === "tenant" || c.owner === owner),
  );
}

/** 0..1 of the limit in force; a block is full, a disabled limit below every counted one. */
function usedShare(counter: LiveCounter): number {
  if (counter.override?.value === "disabled") return -1;
  return counter.capacity > 0 ? counter.used / counter.capacity : 1;
}

function UtilizationBar({ counter, busiest }: { counter: LiveCounter; busiest: boolean }) {
  const { override } = counter;
  const zone = useTimeZone();
  const whose = busiest ? ` · key ${counter.owner}` : "";
  if (override?.value === "disabled")
    return (
      <span className="counter" data-testid={`now-${counter.name}`}>
        <span className="muted small">not evaluated{whose}</span>
        <OverrideBadge override={override} zone={zone} />
      </span>
    );
  const percent = Math.min(100, Math.round(usedShare(counter) * 100));
  return (
    <span className="counter" data-testid={`now-${counter.name}`}>
      <Meter percent={percent} label={`${counter.name} used`} />
      <span className="mono">{percent}%</span>
      <span className="muted small">
        {override?.value === 0
          ? "blocked: every check denied"
          : `${formatWhole(counter.used)} / ${formatWhole(counter.capacity)}`}
        {whose}
      </span>
      {override && <OverrideBadge override={override} zone={zone} />}
    </span>
  );
}
