// Text for the limit tree (isomorphic): utilization bands in words and colours, where a
// limit's values come from, windows. Colour is never the only carrier: every band has a word.

import type { LimitReading, TreeNode } from "@/lib/control/limit-tree/types";
import { formatWhole } from "@/lib/shared/format-count";

export type Band = "idle" | "ok" | "high" | "at-limit";

export function bandOf(utilization: number | null): Band {
  if (utilization === null) return "idle";
  if (utilization >= 0.9) return "at-limit";
  return utilization >= 0.6 ? "high" : "ok";
}

export const BAND_WORD: Record<Band, string> = {
  idle: "no limits",
  ok: "ok",
  high: "high",
  "at-limit": "at limit",
};

/** CSS colours (the theme's variables, so light and dark both read). */
export const BAND_COLOR: Record<Band, string> = {
  idle: "var(--muted)",
  ok: "var(--ok)",
  high: "var(--warn, #b26a00)",
  "at-limit": "var(--danger)",
};

export function percent(ratio: number | null): string {
  return ratio === null ? "–" : `${Math.round(ratio * 100)}%`;
}

export function windowText(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`;
}

/** "plan", "tenant override", "key override", "route": where the values came from last. */
export function sourceText(limit: LimitReading): string {
  const first = limit.provenance[0]?.level;
  if (limit.from === "plan" || limit.from === "route" || first === limit.from) return limit.from;
  return `${limit.from} override`;
}

/** "binds: route POST /v1/items (writes, 0 left, 0%)": the limit, its units and share left. */
export function bindingText(node: TreeNode): string | null {
  const b = node.binding;
  if (!b) return null;
  const where = b.level === "route" && b.route !== null ? `route ${b.route}` : b.level;
  return `binds: ${where} (${b.limit}, ${formatWhole(Math.floor(b.remaining))} left, ${percent(b.share)})`;
}

/** "12 rejected by its limits (900 of its checks)": what it denied, and all its checks lost. */
export function rejectedText(node: TreeNode): string {
  const own = `${formatWhole(node.rejected)} rejected by its limits`;
  return node.checksRejected > node.rejected
    ? `${own} (${formatWhole(node.checksRejected)} of its checks)`
    : own;
}

/** One line of text for a node: what a screen reader and the bar label say. */
export function nodeSummary(node: TreeNode): string {
  const parts = [`${percent(node.utilization)} ${BAND_WORD[bandOf(node.utilization)]}`, rejectedText(node)];
  const binding = bindingText(node);
  if (binding) parts.push(binding);
  return parts.join(" · ");
}
