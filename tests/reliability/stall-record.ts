import type { LoopStalls } from "@/lib/check/loop-stalls";
import { MAX_STALL_SPANS, StallSpansSchema } from "@/lib/check/http/stall-spans-endpoint";
import { sideRead } from "../integration/check/side-read";
import type { Span } from "./stall-excuse";

// The stall spans of both ends of the check traffic, in epoch ms: this process's own (its
// LoopStalls) and the app's check front's (GET /api/metrics/stalls). The front keeps a ring
// of 4,096 spans (at least 8 s, as a tick comes every 2 ms at most), so both are read
// every second while the traffic runs, each read from where the last one ended.

const POLL_MS = 1_000;

export class StallRecord {
  readonly client: Span[] = [];
  readonly server: Span[] = [];
  /** reads of the server that came back full (spans may be missing before them) */
  truncated = 0;
  /** the server's clock at its last read, epoch ms: its spans are complete up to here */
  serverUntil = 0;
  private clientSince = -Infinity;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly stalls: LoopStalls,
  ) {}

  start(): void {
    this.running = true;
    this.serverUntil = Date.now();
    this.loop = this.poll();
  }

  /** Stops polling and reads both ends once more, up to now. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.read();
  }

  private async poll(): Promise<void> {
    while (this.running) {
      await this.read().catch(() => undefined); // a missed read is caught up by the next
      if (this.running) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async read(): Promise<void> {
    const spans = this.stalls.spansSince(this.clientSince);
    this.clientSince = performance.now();
    for (const [start, end] of spans)
      this.client.push([performance.timeOrigin + start, performance.timeOrigin + end]);
    const answer = await sideRead(`${this.url}/api/metrics/stalls?since=${Math.floor(this.serverUntil)}`);
    if (answer.status !== 200) throw new Error(`GET /api/metrics/stalls answered ${answer.status}`);
    const body = StallSpansSchema.parse(JSON.parse(answer.text));
    if (body.spans.length >= MAX_STALL_SPANS) this.truncated++;
    this.server.push(...body.spans);
    this.serverUntil = body.now;
  }
}
