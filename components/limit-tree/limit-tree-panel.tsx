"use client";

import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { LimitTreeData, TreeNode } from "@/lib/control/limit-tree/types";
import { LimitNodeDetails } from "@/components/limit-tree/limit-node-details";
import { LimitTreeChart } from "@/components/limit-tree/limit-tree-chart";
import { LimitTreeList } from "@/components/limit-tree/limit-tree-list";
import { percent } from "@/components/limit-tree/tree-format";
import { useLiveLimitTree } from "@/components/limit-tree/use-live-limit-tree";
import { formatTime } from "@/components/charts/format";
import { useTimeZone } from "@/components/charts/time-zone-context";
import { formatSpan } from "@/lib/shared/format-span";
import { isRangeId, RANGES } from "@/lib/usage/ranges";

// The limit hierarchy of a tenant, live: which level holds traffic back right now. A click
// (or Enter on a node in the list) on a key opens its routes and subject limits, on a
// route the keys that use it most; any node shows its limits' settings and origin.

interface View {
  key: string | null;
  route: string | null;
}

const NARROW = "(max-width: 640px)";

function useNarrow(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(NARROW);
      media.addEventListener("change", notify);
      return () => media.removeEventListener("change", notify);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

/** Whether the element is (partly) in the viewport. */
function useOnScreen(ref: React.RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) =>
      setOnScreen(entries.some((e) => e.isIntersecting)),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

function queryOf(tenant: string, view: View, range: string): string {
  const q = new URLSearchParams({ tenant, range });
  if (view.key) q.set("key", view.key);
  else if (view.route) q.set("route", view.route);
  return q.toString();
}

/**
 * Where the per-limit counts do not reach back over the whole range (stored only since an
 * upgrade, past retention, a rollup far behind): the span they cover.
 */
function attributedText(data: LimitTreeData): string {
  const range = isRangeId(data.range) ? RANGES[data.range].rangeMs : 0;
  const span = data.generatedAt - data.attributedSince;
  return span < range - 60_000 ? ` (by limit: the last ${formatSpan(span)})` : "";
}

export function LimitTreePanel({ tenant, range = "15m" }: { tenant: string; range?: string }) {
  const zone = useTimeZone();
  const [view, setView] = useState<View>({ key: null, route: null });
  const [selected, setSelected] = useState<string | null>(null);
  const narrow = useNarrow();
  const panel = useRef<HTMLElement>(null);
  const { data, error } = useLiveLimitTree(queryOf(tenant, view, range), useOnScreen(panel));
  const nodes = data && data.view.key === view.key && data.view.route === view.route ? data.nodes : [];
  const pick = (node: TreeNode) => {
    setSelected(node.id);
    if (node.drill && (node.drill.key !== view.key || node.drill.route !== view.route)) {
      setView(
        node.drill.key
          ? { key: node.drill.key, route: null }
          : { key: null, route: node.drill.route ?? null },
      );
    }
  };
  const shown = nodes.find((n) => n.id === selected) ?? null;
  return (
    <section
      ref={panel}
      className="panel"
      data-testid="limit-tree"
      aria-labelledby="limit-tree-title"
      style={{ display: "grid", gap: 12, minWidth: 0 }}
    >
      <h2 id="limit-tree-title" style={{ margin: 0 }}>
        Limit hierarchy
      </h2>
      <nav
        aria-label="Limit hierarchy view"
        className="muted"
        style={{ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center" }}
      >
        <button
          type="button"
          className="secondary"
          disabled={!view.key && !view.route}
          onClick={() => setView({ key: null, route: null })}
        >
          Whole tenant {tenant}
        </button>
        {view.key ? <span>› key {view.key}: its routes and subject limits</span> : null}
        {view.route ? <span>› route {view.route}: the keys that use it most</span> : null}
      </nav>
      <p className="muted" data-testid="limit-tree-status" aria-live="polite" style={{ margin: 0 }}>
        {error ? (
          <span className="error" role="alert">
            Live updates paused: {error} ·{" "}
          </span>
        ) : data ? (
          "Live · "
        ) : (
          "Loading… "
        )}
        {data
          ? `config v${data.configVersion} · counters read in ${data.counterReadMs} ms · updated ${formatTime(data.generatedAt, 1_000, zone)} ${zone} · rejections over ${data.range}${attributedText(data)}`
          : null}
      </p>
      {nodes.length > 0 ? (
        <>
          <LimitTreeChart nodes={nodes} narrow={narrow} selected={selected} onPick={pick} />
          {data && data.keys.hidden > 0 ? (
            <p className="muted" data-testid="limit-tree-hidden" style={{ margin: 0 }}>
              {`${data.keys.hidden} more of ${data.keys.total} keys not drawn (at most ${percent(data.keys.hiddenMaxUtilization)} used)`}
            </p>
          ) : null}
          <LimitTreeList nodes={nodes} selected={selected} onPick={pick} />
          {shown ? (
            <LimitNodeDetails node={shown} />
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              Select a node to see its limits and where they come from.
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
