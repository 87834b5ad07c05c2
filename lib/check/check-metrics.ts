import "server-only";
import { Registry, type Cell } from "@/lib/shared/metrics-registry";
import {
  DEGRADED_CAUSES,
  type DecisionOutcome,
  type DecisionReason,
  type DegradedCause,
  type StoreFailure,
} from "@/lib/check/types";
import { LATENCY_BOUNDS, zeroFigures, type HealthFigures } from "@/lib/check/health/health-figures";

// The enforcement metrics served at GET /api/metrics. One registry per process (the
// custom server is one process; each app process exposes its own figures).

export const registry = new Registry();

/** Texts other parts of the process append to /api/metrics (usage's tenant memory gauge):
 * registered by them, so the check path imports none of them. */
const extraTexts = new Set<() => string>();

export function addMetricsText(source: () => string): void {
  extraTexts.add(source);
}

export function extraMetricsText(): string {
  let text = "";
  for (const source of extraTexts) text += source();
  return text;
}

const checks = registry.counter("sluice_checks_total", "Check decisions by outcome and reason.", [
  "outcome",
  "reason",
]);
const latency = registry.histogram(
  "sluice_check_duration_seconds",
  "Time to answer a check request (POST /api/check; a batch counts once; 429 refusals, held on purpose, are not counted).",
  LATENCY_BOUNDS,
);
const degraded = registry.counter(
  "sluice_degraded_decisions_total",
  "Decisions made without Redis' verdict, by onStoreFailure verdict and cause (redis_timeout, connection_lost, breaker_open, local_overload, limiter_error).",
  ["allowed", "cause"],
);
const configVersion = registry.gauge(
  "sluice_config_version",
  "The configuration version this process enforces.",
);
const cacheHits = registry.counter(
  "sluice_cache_hits_total",
  "Checks answered from a local cache without Redis.",
  ["cache"],
);
const storeErrors = registry.counter(
  "sluice_store_failures_total",
  "Limiter calls that failed or timed out, by kind (local_overload: this process stalled past the deadline, not counted by the breaker).",
  ["kind"],
);
const breakerOpen = registry.gauge(
  "sluice_store_circuit_open",
  "1 while the circuit breaker skips Redis, else 0.",
);
const requests = registry.counter(
  "sluice_check_requests_total",
  "Check requests by endpoint (check, batch, grpc) and status (HTTP, or the gRPC status code).",
  ["endpoint", "status"],
);

const lateAnswers = registry.counter(
  "sluice_check_late_answers_total",
  "Single checks answered later than the check timeout + 50 ms, by cause: starved (this process's event loop was stalled for the excess: its CPU, a GC pause, the machine's scheduler) or waited (anything else: queued behind the caller's own checks in the fair gate, or a wait on the check path).",
  ["cause"],
);

const refusals = registry.counter(
  "sluice_check_refusals_total",
  "Check requests refused with 429 before any decision: a caller's fair share of the front full, or its plan's service limit spent.",
  ["reason"],
);

const listDecisions = registry.counter(
  "sluice_list_decisions_total",
  "Checks whose subject met an allow or deny list: deny answered in memory without Redis, allow counted without the limits it skips.",
  ["list"],
);

// Present from the start, so dashboards see zeros rather than gaps. Cells are resolved once
// per label combination and kept: an increment on the check path is then one addition.
const cacheCells = {
  negative: cacheHits.cell("negative"),
  deny: cacheHits.cell("deny"),
  penalty: cacheHits.cell("penalty"),
};
const breakerCell = breakerOpen.cell();
const listCells = { deny: listDecisions.cell("deny"), allow: listDecisions.cell("allow") };
const refusalCells = {
  fair_share: refusals.cell("fair_share"),
  service_limit: refusals.cell("service_limit"),
};
const versionCell = configVersion.cell();
const lateCells = { starved: lateAnswers.cell("starved"), waited: lateAnswers.cell("waited") };
const degradedCells = {
  true: causeCells("true"),
  false: causeCells("false"),
};
const storeFailureCells: Record<StoreFailure, Cell> = {
  timeout: storeErrors.cell("timeout"),
  error: storeErrors.cell("error"),
  circuit_open: storeErrors.cell("circuit_open"),
  local_overload: storeErrors.cell("local_overload"),
};

function causeCells(allowed: string): Record<DegradedCause, Cell> {
  const cells = {} as Record<DegradedCause, Cell>;
  for (const cause of DEGRADED_CAUSES) cells[cause] = degraded.cell(allowed, cause);
  return cells;
}

// outcome -> reason -> cell: two lookups of the literals' cached hashes, where one joined
// key was a string built, flattened and hashed per check
const checkCells = new Map<DecisionOutcome, Map<DecisionReason, Cell>>();
const requestCells = {
  check: new Map<number, Cell>(),
  batch: new Map<number, Cell>(),
  grpc: new Map<number, Cell>(),
};

export const checkMetrics = {
  decision(outcome: DecisionOutcome, reason: DecisionReason): void {
    let byReason = checkCells.get(outcome);
    if (!byReason) checkCells.set(outcome, (byReason = new Map()));
    let cell = byReason.get(reason);
    if (!cell) byReason.set(reason, (cell = checks.cell(outcome, reason)));
    cell.value += 1;
  },
  degraded(allowed: boolean, cause: DegradedCause): void {
    (allowed ? degradedCells.true : degradedCells.false)[cause].value += 1;
  },
  latency(seconds: number): void {
    latency.observe(seconds);
  },
  late(cause: "starved" | "waited"): void {
    lateCells[cause].value += 1;
  },
  refused(reason: "fair_share" | "service_limit"): void {
    refusalCells[reason].value += 1;
  },
  configVersion(version: number): void {
    versionCell.value = version;
  },
  cacheHit(cache: "negative" | "deny" | "penalty"): void {
    cacheCells[cache].value += 1;
  },
  listMatch(list: "deny" | "allow"): void {
    listCells[list].value += 1;
  },
  storeFailure(kind: StoreFailure): void {
    storeFailureCells[kind].value += 1;
  },
  breakerOpen(open: boolean): void {
    breakerCell.value = open ? 1 : 0;
  },
  /** This process's figures since it started, for the per-minute health summary (off the check path). */
  healthFigures(): HealthFigures {
    const figures = zeroFigures();
    const histogram = latency.snapshot();
    figures.latency = histogram.counts;
    for (const [outcome, byReason] of checkCells) {
      let sum = 0;
      for (const cell of byReason.values()) sum += cell.value;
      if (outcome === "rejected") figures.rejected += sum;
      else if (outcome === "degraded") figures.degraded += sum;
      else figures.allowed += sum; // shadow denials were allowed
    }
    for (const cause of DEGRADED_CAUSES)
      figures.causes[cause] = degradedCells.true[cause].value + degradedCells.false[cause].value;
    for (const [endpoint, cells] of Object.entries(requestCells)) {
      for (const [status, cell] of cells) {
        figures.requests += cell.value;
        if (endpoint === "grpc" ? status !== 0 : status >= 500) figures.errors += cell.value;
      }
    }
    figures.refused = refusalCells.fair_share.value + refusalCells.service_limit.value;
    figures.lateStarved = lateCells.starved.value;
    figures.lateWaited = lateCells.waited.value;
    return figures;
  },
  /** `status`: the HTTP status, or for "grpc" (Envoy's ShouldRateLimit) the gRPC status code */
  request(endpoint: "check" | "batch" | "grpc", status: number): void {
    const cells = requestCells[endpoint];
    let cell = cells.get(status);
    if (!cell) cells.set(status, (cell = requests.cell(endpoint, String(status))));
    cell.value += 1;
  },
};
