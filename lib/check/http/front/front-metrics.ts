import "server-only";
import { registry } from "@/lib/check/check-metrics";

// Which way requests reach the checks. The front answers a check on the connection it came
// on; a connection whose first other request (the dashboard, the admin API) it passes to
// the app process stays there, and every later check on it comes back over a private
// socket, two hops and the app's event loop longer. A client whose checks are slow while
// the front's own latency is fine is often such a connection: these two counters say so.

const handOffs = registry
  .counter(
    "sluice_front_handoffs_total",
    "Connections this check front passed to the app process at a request it does not answer itself (the dashboard, the admin API); the app keeps them.",
  )
  .cell();
const forwarded = registry.counter(
  "sluice_forwarded_requests_total",
  "Requests the app process passed back to this front because they came on a connection the app holds, by kind (check: the check endpoints; other: metrics): each took the app's event loop and a private socket on its way.",
  ["kind"],
);
const forwardedCells = { check: forwarded.cell("check"), other: forwarded.cell("other") };

export const frontMetrics = {
  handOff(): void {
    handOffs.value += 1;
  },
  /** `url`: the forwarded request's path and query */
  forwarded(url: string | undefined): void {
    const cell = url?.startsWith("/api/check") === true ? forwardedCells.check : forwardedCells.other;
    cell.value += 1;
  },
};
