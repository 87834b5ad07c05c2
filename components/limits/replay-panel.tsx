"use client";

import { useState } from "react";
import type { LimitBy, LimitRule } from "@/lib/shared/limit-types";
import type { LimitTarget } from "@/lib/control/data/edits/limit-target";
import {
  MAX_RANGE_MINUTES,
  type ReplayRequest,
  type ReplayResult,
  type ReplayRule,
} from "@/lib/control/replay/types";
import type { ActionResult } from "@/components/forms/action-result";
import { ReplayChart } from "@/components/charts/replay-chart";
import { ReplayFindings } from "@/components/limits/replay-findings";

// "What would this limit have done to the last hour's traffic?" (docs/replay.md), asked on
// demand: a replay reads Redis and runs the model, so it never runs while typing.

export type ReplayAction = (input: ReplayRequest) => Promise<ActionResult<ReplayResult>>;

const RANGES = [15, 30, MAX_RANGE_MINUTES] as const;

function ruleOf(rule: LimitRule | null): ReplayRule | null {
  if (!rule) return null;
  const { algorithm, limit, windowMs, burst, action, maxDelayMs } = rule;
  return { algorithm, limit, windowMs, burst, action, maxDelayMs };
}

/** The tenant, key and route a target's limit counts, or null for plan and global limits. */
function scopeOf(
  target: LimitTarget,
  route: string | null,
): Pick<ReplayRequest, "tenant" | "key" | "route"> | null {
  const only = route ? { route } : {};
  if (target.kind === "tenant") return { tenant: target.tenant, ...only };
  if (target.kind === "key") return { tenant: target.tenant, key: target.key, ...only };
  if (target.kind === "tenant-route") return { tenant: target.tenant, route: target.pattern };
  return null;
}

export function ReplayPanel(props: {
  target: LimitTarget;
  by: LimitBy | null;
  route: string | null;
  proposed: LimitRule | null;
  current: LimitRule | null;
  replay: ReplayAction;
}) {
  const [minutes, setMinutes] = useState<number>(MAX_RANGE_MINUTES);
  const [result, setResult] = useState<ReplayResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const scope = scopeOf(props.target, props.route);
  const proposed = ruleOf(props.proposed);

  if (!scope)
    return (
      <p className="muted" data-testid="replay-unavailable">
        The replay runs on one tenant&apos;s recorded traffic: open this limit from a tenant (or its override
        there) to replay it.
      </p>
    );

  async function run() {
    if (!scope || !proposed || !props.by) return;
    setPending(true);
    setError(null);
    const answer = await props.replay({
      ...scope,
      by: props.by,
      proposed,
      current: ruleOf(props.current),
      minutes,
    });
    setPending(false);
    if (answer.ok) setResult(answer.data);
    else setError(answer.message);
  }

  return (
    <section className="replay" data-testid="replay-panel" aria-labelledby="replay-title">
      <h3 id="replay-title">What-if replay</h3>
      <p className="muted">
        Replays the recorded checks through this limit&apos;s algorithm, today&apos;s values against the
        form&apos;s. Nothing is saved or counted.
      </p>
      <div className="form-actions">
        <label htmlFor="replay-range">Recorded traffic of the last</label>
        <select id="replay-range" value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {RANGES.map((m) => (
            <option key={m} value={m}>
              {m} minutes
            </option>
          ))}
        </select>
        <button
          type="button"
          className="secondary"
          onClick={run}
          disabled={pending || !proposed || !props.by}
        >
          {pending ? "Replaying…" : "Replay"}
        </button>
        {(!proposed || !props.by) && (
          <small className="muted">Needs counted per, algorithm, limit and window.</small>
        )}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {result && (
        <div data-testid="replay-result">
          <ReplayChart points={result.points} stepMs={result.stepMs} />
          <ReplayFindings result={result} hasCurrent={props.current !== null} />
        </div>
      )}
    </section>
  );
}
