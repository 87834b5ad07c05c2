"use client";

import { useState } from "react";
import type { LimitRule } from "@/lib/shared/limit-types";
import { overAdmissionBound, type LocalSettingView } from "@/components/limits/over-admission";
import { formatSpan } from "@/lib/shared/format-span";

// Next to the consistency setting: for a local limit, how far past its limit it may admit,
// computed for a number of servers the editor states (Sluice does not count its servers;
// 2 is assumed until changed).

export function OverAdmissionBound({ rule, setting }: { rule: LimitRule | null; setting: LocalSettingView }) {
  const [servers, setServers] = useState(2);
  if (setting.consistency !== "local") {
    return (
      <p className="muted" data-testid="over-admission">
        Exact: every check is counted in Redis; never over the limit.
      </p>
    );
  }
  const bound = rule ? overAdmissionBound(servers, rule.limit, rule.windowMs, setting.syncEveryMs) : null;
  return (
    <div className="field" data-testid="over-admission">
      <label htmlFor="l-servers">Servers (N, assumed)</label>
      <input
        id="l-servers"
        type="number"
        min={1}
        max={1000}
        value={servers}
        onChange={(e) => setServers(Math.max(1, Math.min(1000, Number(e.target.value) || 1)))}
      />
      <small className="muted">
        {bound === null
          ? "set a limit and window to see the bound"
          : `may admit up to about ${bound.toLocaleString("en")} over the limit: (N - 1) x rate x I = ` +
            `${servers - 1} x ${rule?.limit} per ${formatSpan(rule?.windowMs ?? 0)} x ${formatSpan(setting.syncEveryMs)}, ` +
            `at traffic of the limit's own rate`}
      </small>
    </div>
  );
}
