import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Principal } from "@/lib/shared/principal";
import { deliverDue } from "@/lib/control/alerts/delivery-worker";
import { evaluateOnce } from "@/lib/control/alerts/evaluator";
import { redis } from "@/lib/shared/redis/redis";
import { rowContext } from "@/lib/usage/read/context";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { usageSettings } from "@/lib/usage/settings";
import type { UsageEvent } from "@/lib/usage/types";

// Fixtures of the alert tests: a real HTTP receiver on loopback, usage recorded in real
// time into the deployment's namespace (the running test apps evaluate the same rules and
// data, so every assertion is about state, which must come out the same however many
// evaluators and workers took part), and one evaluation + delivery step.

export const SYSTEM: Principal = { kind: "system", label: "alert test" };
export const RUN = `al${Date.now().toString(36)}${process.pid.toString(36)}`;
export const WORKER = { retryBaseMs: 200, maxAttempts: 5, timeoutMs: 2_000, allowPrivate: false };

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** status codes answered in turn; 200 once they run out */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(answers: number[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const state = { answers: [...answers] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = state.answers.shift() ?? 200;
      if (status >= 300 && status < 400) res.setHeader("location", "/elsewhere");
      res.writeHead(status).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get answers() {
      return state.answers;
    },
    set answers(next: number[]) {
      state.answers = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Records decisions now, in the namespace the apps read. */
export async function record(events: UsageEvent[]): Promise<void> {
  const settings = usageSettings();
  const recorder = new UsageRecorder({
    redis: () => redis(),
    ns: settings.ns,
    enabled: true,
    secondsRetentionMs: settings.secondsRetentionMs,
  });
  for (const e of events) recorder.record(e);
  await recorder.flush();
}

export function events(n: number, base: Omit<UsageEvent, "subject">): UsageEvent[] {
  return Array.from({ length: n }, () => ({ ...base, subject: null }));
}

/** One evaluation and one delivery pass, as a server's jobs run them. */
export async function step(): Promise<void> {
  await evaluateOnce(rowContext());
  await deliverDue(WORKER);
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 25_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
