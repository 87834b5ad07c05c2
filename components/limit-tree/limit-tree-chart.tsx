"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TreeNode } from "@/lib/control/limit-tree/types";
import { bandOf, BAND_COLOR, BAND_WORD, nodeSummary, percent } from "@/components/limit-tree/tree-format";
import { formatWhole } from "@/lib/shared/format-count";

// The tree as bars: one row per node, indented along the chain a check meets (plan, tenant,
// key, route), bar length its utilization, colour its band, and the same in words beside
// the bar: the rejections its own limits denied, and what binds. A click on a bar is a
// click on the node (the list below gives the same by keyboard).

interface Row {
  id: string;
  label: string;
  shown: number;
  /** the short line under the label: utilization in words, rejections its limits denied, what binds */
  short: string;
  summary: string;
  node: TreeNode;
}

const INDENT = "\u00a0\u00a0";

function shortOf(node: TreeNode): string {
  const parts = [
    `${percent(node.utilization)} ${BAND_WORD[bandOf(node.utilization)]}`,
    `${formatWhole(node.rejected)} rej`,
  ];
  if (node.binding) parts.push(`binds: ${node.binding.level} ${percent(node.binding.share)} left`);
  return parts.join(" · ");
}

/** The Y axis tick: the node's name, indented, and its short summary below it. */
function NodeTick(props: {
  x?: number | string;
  y?: number | string;
  index?: number;
  rows: readonly Row[];
  width: number;
}) {
  const row = props.rows[props.index ?? 0];
  if (!row) return null;
  // the tick's x is the axis line less the tick size and margin: start inside the axis area
  const x = Number(props.x ?? 0) - props.width + 12;
  const y = Number(props.y ?? 0);
  return (
    <g>
      <text x={x} y={y - 3} fill="var(--text)" fontSize={12}>
        {row.label}
      </text>
      <text x={x} y={y + 11} fill="var(--muted)" fontSize={10.5}>
        {`${INDENT.repeat(row.node.depth + (row.node.depth > 0 ? 1 : 0))}${row.short}`}
      </text>
    </g>
  );
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function rowsOf(nodes: readonly TreeNode[], narrow: boolean): Row[] {
  // characters that fit beside the bars, less the indentation
  const budget = narrow ? 30 : 46;
  return nodes.map((node) => {
    return {
      id: node.id,
      label: `${INDENT.repeat(node.depth)}${node.depth > 0 ? "└ " : ""}${clip(node.label, budget - node.depth)}`,
      shown: node.utilization ?? 0,
      short: clip(shortOf(node), budget + 2 - node.depth),
      summary: nodeSummary(node),
      node,
    };
  });
}

export function LimitTreeChart({
  nodes,
  narrow,
  selected,
  onPick,
}: {
  nodes: readonly TreeNode[];
  narrow: boolean;
  selected: string | null;
  onPick: (node: TreeNode) => void;
}) {
  const rows = rowsOf(nodes, narrow);
  const axis = narrow ? 190 : 300;
  return (
    <div data-testid="limit-tree-chart" style={{ width: "100%", height: 40 + rows.length * 40 }}>
      <ResponsiveContainer>
        <BarChart
          data={rows}
          layout="vertical"
          margin={{ top: 4, right: narrow ? 8 : 24, bottom: 0, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--border)" />
          <XAxis
            type="number"
            domain={[0, 1]}
            tickFormatter={(v: number) => percent(v)}
            tick={{ fill: "var(--muted)", fontSize: 11 }}
          />
          <YAxis
            type="category"
            dataKey="id"
            width={axis}
            interval={0}
            tickLine={false}
            tick={(tick: { x?: number | string; y?: number | string; index?: number }) => (
              <NodeTick {...tick} rows={rows} width={axis} />
            )}
          />
          <Tooltip
            cursor={{ fill: "var(--border)", opacity: 0.4 }}
            contentStyle={{
              background: "var(--panel)",
              border: "1px solid var(--border)",
              color: "var(--text)",
            }}
            formatter={(_value, _name, item) => [
              (item.payload as Row).summary,
              (item.payload as Row).node.label,
            ]}
            labelFormatter={() => ""}
          />
          <Bar
            dataKey="shown"
            name="Utilization"
            isAnimationActive={false}
            minPointSize={2}
            onClick={(entry: { payload?: Row }) => entry.payload && onPick(entry.payload.node)}
            style={{ cursor: "pointer" }}
          >
            {rows.map((r) => (
              <Cell
                key={r.id}
                style={{ fill: BAND_COLOR[bandOf(r.node.utilization)] }}
                stroke={r.id === selected ? "var(--text)" : undefined}
                strokeWidth={r.id === selected ? 2 : 0}
              />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
