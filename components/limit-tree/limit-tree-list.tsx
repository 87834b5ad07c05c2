"use client";

import type { TreeNode } from "@/lib/control/limit-tree/types";
import { bandOf, BAND_COLOR, nodeSummary } from "@/components/limit-tree/tree-format";

// The tree's nodes as buttons: the keyboard's (and a screen reader's) way through the chart,
// each with its utilization, rejections and binding level in words.

export function LimitTreeList({
  nodes,
  selected,
  onPick,
}: {
  nodes: readonly TreeNode[];
  selected: string | null;
  onPick: (node: TreeNode) => void;
}) {
  return (
    <ul
      data-testid="limit-tree-nodes"
      aria-label="Limit hierarchy nodes"
      style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: 4 }}
    >
      {nodes.map((node) => (
        <li key={node.id} style={{ paddingLeft: node.depth * 14 }}>
          <button
            type="button"
            className="secondary"
            aria-pressed={node.id === selected}
            data-testid={`tree-node-${node.id}`}
            onClick={() => onPick(node)}
            style={{
              width: "100%",
              textAlign: "left",
              display: "flex",
              flexWrap: "wrap",
              gap: "2px 10px",
              alignItems: "baseline",
            }}
          >
            <span
              aria-hidden="true"
              style={{
                display: "inline-block",
                width: 10,
                height: 10,
                borderRadius: 2,
                background: BAND_COLOR[bandOf(node.utilization)],
              }}
            />
            <strong style={{ overflowWrap: "anywhere" }}>{node.label}</strong>
            <span className="muted">{nodeSummary(node)}</span>
            {node.drill ? (
              <span className="muted">{node.drill.key ? "· open its routes" : "· open its keys"}</span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
