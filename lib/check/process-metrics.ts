import "server-only";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { registry } from "@/lib/check/check-metrics";

// The serving process's own memory and event-loop delay, read when /api/metrics is scraped
// (never on the check path): what a soak or a dashboard watches for growth, and what tells
// a stall of this process (its CPU, a GC pause) apart from a slow Redis.

const resident = registry
  .gauge("sluice_process_resident_memory_bytes", "Resident memory of this check process.")
  .cell();
const heapUsed = registry
  .gauge("sluice_process_heap_used_bytes", "V8 heap in use in this check process.")
  .cell();
const delay = registry.gauge(
  "sluice_event_loop_delay_seconds",
  "Event-loop delay of this check process since the previous scrape (a 10 ms sampling timer's lateness), by quantile; 1 is the maximum.",
  ["quantile"],
);
const delayCells = { p50: delay.cell("0.5"), p99: delay.cell("0.99"), max: delay.cell("1") };

// libuv samples it with its own timer: no cost per check. Created on first import, which
// is the front's (lean-router.ts), and kept for the life of the process. Node records each
// sample's whole interval: the resolution is taken off, so an idle loop reads about 0.
const RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
loop.enable();
const lateness = (ns: number): number => Math.max(0, ns / 1e9 - RESOLUTION_MS / 1e3);

export function refreshProcessMetrics(): void {
  const usage = process.memoryUsage();
  resident.value = usage.rss;
  heapUsed.value = usage.heapUsed;
  // nanoseconds; a window with no sample yet reads 0
  const samples = loop.count > 0;
  delayCells.p50.value = samples ? lateness(loop.percentile(50)) : 0;
  delayCells.p99.value = samples ? lateness(loop.percentile(99)) : 0;
  delayCells.max.value = samples ? lateness(loop.max) : 0;
  // per scrape, as prom-client's nodejs_eventloop_lag_* gauges: each figure is recent
  loop.reset();
}
