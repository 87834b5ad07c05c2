"use client";

import type { LimitReading, TreeNode } from "@/lib/limit-tree/types";
import {
  bandOf,
  BAND_WORD,
  nodeSummary,
  percent,
  sourceText,
  windowText,
} from "@/components/limit-tree/tree-format";

// A node's details: each limit's settings, its live reading, and where its values come from
// (plan, tenant override, key override, route), step by step.

function settings(l: LimitReading): string {
  const burst = l.burst !== null && l.burst !== l.limit ? `, burst ${l.burst}` : "";
  return `${l.limit} per ${windowText(l.windowMs)}${burst} · ${l.algorithm.replace("_", " ")} · by ${l.by}${l.mode === "shadow" ? " · shadow" : ""}`;
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
                    {`${percent(l.utilization)} ${BAND_WORD[bandOf(l.utilization)]}`}
                    <div className="muted">{`${Math.round(l.used * 10) / 10} of ${l.capacity} used, ${l.remaining} left`}</div>
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
