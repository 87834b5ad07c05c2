import type { Simulation } from "@/lib/control/counters/simulate-check";
import { formatSpan } from "@/lib/shared/format-span";
import { formatDateSeconds } from "@/lib/shared/format-date";
import { LimitCounter, ruleText } from "@/components/ops/limit-counter";
import { OverrideBadge } from "@/components/ops/override-badge";
import { SkippedLimits } from "@/components/ops/skipped-limits";

// What the next check would decide, and every limit it meets: where each value comes from
// (base first, then overrides), its live counter, and whether it admits this check.

function Verdict({ sim }: { sim: Simulation }) {
  const deciding = sim.limits.find((l) => l.deciding);
  return (
    <p
      className={sim.allowed ? "verdict verdict-ok" : "verdict verdict-denied"}
      role="status"
      data-testid="verdict"
    >
      <strong>{sim.allowed ? "Allowed" : "Denied"}</strong> ({sim.reason}) for a check of cost {sim.cost}
      {sim.route ? (
        <>
          {" "}
          on <code>{sim.route}</code>
        </>
      ) : (
        " (no route matched)"
      )}
      {!sim.allowed && deciding ? `: limit ${deciding.name}` : ""}
      {sim.retryAfterMs !== null ? `, retry in ${formatSpan(sim.retryAfterMs)}` : ""}
      {sim.waitMs > 0 ? `, after waiting ${formatSpan(sim.waitMs)}` : ""}. Config version {sim.configVersion};
      a dry run, nothing was consumed.
    </p>
  );
}

/** What the allow and deny lists answer the subject: denied at once, or limits skipped. */
function ListLine({ list }: { list: NonNullable<Simulation["list"]> }) {
  const where = `the ${list.from.join(" and ")} ${list.verdict} list`;
  return (
    <p className="muted" data-testid="list-verdict">
      {list.verdict === "deny"
        ? `The subject is on ${where}: denied before any limit, nothing counted.`
        : `The subject is on ${where}: ${
            list.skips === null ? "every limit is skipped" : `skips ${list.skips.join(", ")}`
          }; the other limits decide.`}
    </p>
  );
}

/** A penalty's block running on this identity, and when it ends. */
function PenaltyLine({ limit, zone }: { limit: Simulation["limits"][number]; zone: string }) {
  if (limit.penaltyBlockMs === undefined || limit.penaltyBlockEnds === undefined) return null;
  return (
    <div className="denied" data-testid="penalty-block">
      blocked by its penalty until {formatDateSeconds(limit.penaltyBlockEnds, false, zone)} (
      {formatSpan(limit.penaltyBlockMs)} left)
    </div>
  );
}

export function SimulationView({ sim, zone = "UTC" }: { sim: Simulation; zone?: string }) {
  return (
    <section aria-label="Simulation" data-testid="simulation">
      <Verdict sim={sim} />
      {sim.list ? <ListLine list={sim.list} /> : null}
      {sim.list?.verdict === "deny" ? null : sim.limits.length === 0 ? (
        <p className="muted">No limit applies to this check.</p>
      ) : (
        <div className="table-scroll">
          <table className="stack-on-phone">
            <thead>
              <tr>
                <th>Limit</th>
                <th>Rule</th>
                <th>Comes from</th>
                <th>Counter now</th>
                <th>This check</th>
              </tr>
            </thead>
            <tbody>
              {sim.limits.map((l) => (
                <tr key={`${l.id}|${l.route ?? ""}`} className={l.deciding ? "deciding" : undefined}>
                  <td>
                    <strong>{l.name}</strong>
                    {l.route && <div className="muted mono">{l.route}</div>}
                  </td>
                  <td data-label="Rule">
                    {ruleText(l)}
                    {l.override && <OverrideBadge override={l.override} zone={zone} />}
                  </td>
                  <td data-label="Comes from">
                    <ol className="provenance">
                      {l.provenance.map((step, i) => (
                        <li key={i}>
                          <span className="badge">{step.level}</span> {step.source}
                          <span className="muted">: {step.fields.join(", ")}</span>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td data-label="Counter now">
                    <LimitCounter figures={l} />
                    <PenaltyLine limit={l} zone={zone} />
                  </td>
                  <td data-label="This check">
                    {l.allowsThisCheck ? "passes" : <strong className="denied">denies</strong>}
                    {l.deciding ? " · decides" : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SkippedLimits skipped={sim.skipped} label="Not evaluated" zone={zone} />
    </section>
  );
}
