import "server-only";
import { registry } from "@/lib/check/check-metrics";

// The serving process's own memory, read when /api/metrics is scraped (never on the check
// path): what a soak or a dashboard watches for growth.

const resident = registry
  .gauge("sluice_process_resident_memory_bytes", "Resident memory of this check process.")
  .cell();
const heapUsed = registry
  .gauge("sluice_process_heap_used_bytes", "V8 heap in use in this check process.")
  .cell();

export function refreshProcessMetrics(): void {
  const usage = process.memoryUsage();
  resident.value = usage.rss;
  heapUsed.value = usage.heapUsed;
}
