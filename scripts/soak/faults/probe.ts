// The fault soak's exactness probe: one key with a tight fixed window (PROBE_LIMIT per
// PROBE_WINDOW_MS), checked well above that rate for the whole soak. Every window must admit
// at most the limit by Redis's own decisions; degraded answers (Redis could not decide) are
// counted apart by cause, since a fail-open limit admits them by design.
import { z } from "zod";

export const PROBE_LIMIT = 100;
export const PROBE_WINDOW_MS = 10_000;
const EVERY_MS = 20; // 50 checks/s: five times the limit

const Answer = z.object({
  allowed: z.boolean(),
  degraded: z.boolean(),
  cause: z.string().optional(),
  limits: z.array(z.object({ name: z.string(), resetMs: z.number().nullable() })),
});

export interface ProbeResult {
  checks: number;
  /** checks Redis admitted beyond the limit, summed over windows */
  overAdmitted: number;
  /** admitted without Redis (fail open), by cause */
  degradedAdmitted: Record<string, number>;
  failed: number;
}

export class Probe {
  private running = true;
  private done: Promise<void> = Promise.resolve();
  private readonly admittedByWindow = new Map<number, number>();
  private readonly result: ProbeResult = { checks: 0, overAdmitted: 0, degradedAdmitted: {}, failed: 0 };

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly apiKey: string,
    private readonly limitName: string,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<ProbeResult> {
    this.running = false;
    await this.done;
    let over = 0;
    for (const admitted of this.admittedByWindow.values()) over += Math.max(0, admitted - PROBE_LIMIT);
    return { ...this.result, overAdmitted: over };
  }

  private async loop(): Promise<void> {
    let next = Date.now();
    while (this.running) {
      next += EVERY_MS;
      await this.once();
      const wait = next - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else next = Date.now(); // behind (a stall): do not burst to catch up
    }
  }

  private async once(): Promise<void> {
    this.result.checks++;
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
        body: JSON.stringify({ apiKey: this.apiKey, route: "GET /probe" }),
        signal: AbortSignal.timeout(5_000),
      });
      const answer = Answer.parse(await response.json());
      if (answer.degraded) {
        if (answer.allowed) {
          const cause = answer.cause ?? "unknown";
          this.result.degradedAdmitted[cause] = (this.result.degradedAdmitted[cause] ?? 0) + 1;
        }
        return;
      }
      const report = answer.limits.find((limit) => limit.name === this.limitName);
      if (!answer.allowed || report?.resetMs == null) return;
      // the window this admission fell in, by where it ends (fixed windows end on multiples of W)
      const end = Math.round((Date.now() + report.resetMs) / PROBE_WINDOW_MS);
      this.admittedByWindow.set(end, (this.admittedByWindow.get(end) ?? 0) + 1);
    } catch {
      this.result.failed++;
    }
  }
}
