"use client";
import "@/components/styles/ops-tools.css";

import type { LimitReading, TreeNode } from "@/lib/control/limit-tree/types";
import {
  bandOf,
  BAND_WORD,
  nodeSummary,
  percent,
  sourceText,
  windowText,
} from "@/components/limit-tree/tree-format";
import { OverrideBadge } from "@/components/ops/override-badge";
import { formatSpan } from "@/lib/shared/format-span";
import { formatDateSeconds } from "@/lib/shared/format-date";
import { useTimeZone } from "@/components/charts/time-zone-context";
import { describeReset } from "@/lib/shared/calendar";
import { formatUsedOf, formatWhole } from "@/lib/shared/format-count";

// A node's details: each limit's settings, its live reading, and where its values come from
// (plan, tenant override, key override, route), step by step. A limit under a temporary
// override shows the value in force with the override's badge; a disabled one says so.

function settings(l: LimitReading): string {
  if (l.override?.value === 0) return `0: blocks every check · ${l.algorithm.replace("_", " ")} · by ${l.by}`;
  if (l.calendar) return calendarSettings(l, l.calendar);
  const burst = l.burst !== null && l.burst !== l.limit ? `, burst ${l.burst}` : "";
  return `${l.limit} per ${windowText(l.windowMs)}${burst} · ${l.algorithm.replace("_", " ")} · by ${l.by}${l.mode === "shadow" ? " · shadow" : ""}`;
}

/** "10000 per month · resets on the 1st 00:00 Europe/Berlin (next 2025-04-01 00:00) · calendar · by tenant" */
function calendarSettings(l: LimitReading, c: NonNullable<LimitReading["calendar"]>): string {
  const next = localTime(c.resetsAt, c.timeZone);
  return `${l.limit} per ${c.period} · ${describeReset(c.period, c.timeZone)} (next ${next}) · calendar quota · by ${l.by}${l.mode === "shadow" ? " · shadow" : ""}`;
}

function localTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).format(ms);
}

function provenance(l: LimitReading): string {
  return l.provenance.map((p) => `${p.source} sets ${p.fields.join(", ")}`).join("; then ");
}

export function LimitNodeDetails({ node }: { node: TreeNode }) {
  return (
    <div data-testid="limit-node-details" aria-live="polite" style={{ display: "grid", gap: 8 }}>
      <h3 style={{ margin: 0, fontSize: "1rem", overflowWrap: "anywhere" }}>{node.label}</h3>
      <p className="muted" style={{ margin: 0 }}>
        {nodeSummary(node)}
        {node.subjects
          ? ` · subject limits read for the ${node.subjects.active} most rejected subjects in the range (at most the last hour), the busiest shown below`
          : ""}
      </p>
      {node.limits.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No limits at this level.
        </p>
      ) : (
        <div style={{ overflowX: "auto" }}>
          <table>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Settings</th>
                <th scope="col">Now</th>
                <th scope="col">Comes from</th>
              </tr>
            </thead>
            <tbody>
              {node.limits.map((l) => (
                <tr key={`${l.name} ${l.route ?? ""} ${l.by}`} data-testid="limit-reading">
                  <td>
                    {l.name}
                    {l.route ? <div className="muted">{l.route}</div> : null}
                  </td>
                  <td>{settings(l)}</td>
                  <td>
                    <Now reading={l} />
                    {l.override ? <OverrideBadge override={l.override} /> : null}
                  </td>
                  <td>
                    {sourceText(l)}
                    <div className="muted">{provenance(l)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Now({ reading: l }: { reading: LimitReading }) {
  if (l.override?.value === "disabled") return <span className="muted">disabled: not evaluated</span>;
  return (
    <>
      {`${percent(l.utilization)} ${BAND_WORD[bandOf(l.utilization)]}`}
      <div className="muted">
        {l.override?.value === 0
          ? "blocked: nothing passes"
          : `${formatUsedOf(l.used, l.capacity)} used, ${formatWhole(l.remaining)} left`}
      </div>
      {l.penaltyBlock ? <PenaltyBlock block={l.penaltyBlock} /> : null}
    </>
  );
}

/** A penalty's running block: what the next checks of this owner are answered (reason penalty). */
function PenaltyBlock({ block }: { block: NonNullable<LimitReading["penaltyBlock"]> }) {
  const ends = formatDateSeconds(block.endsAt, false, useTimeZone());
  return (
    <div data-testid="penalty-block">
      blocked by its penalty until {ends} ({formatSpan(block.leftMs)} left)
    </div>
  );
}
