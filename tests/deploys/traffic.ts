import { Agent, request } from "node:http";

// Steady check traffic from a few keep-alive connections, as a service calling Sluice
// would send it. A request that fails at the connection (refused, reset, closed before an
// answer) is retried once on a new connection, as load balancers do; what still fails is a
// connection error. Every answer is tallied: decisions, 5xx, anything else.

export interface Tally {
  allowed: number;
  rejected: number;
  /** of those allowed, made without Redis (slower than the check timeout) */
  degraded: number;
  serverErrors: number;
  otherStatus: number;
  connectionErrors: number;
  retried: number;
  /** the longest answer, retries included (ms) */
  slowestMs: number;
  /** the first unexpected answer (status and body), to say what went wrong */
  firstUnexpected: string;
}

interface Reply {
  status: number;
  body: string;
}

function send(url: URL, body: string, token: string, agent: Agent | false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export class SteadyTraffic {
  readonly tally: Tally = {
    allowed: 0,
    rejected: 0,
    degraded: 0,
    serverErrors: 0,
    otherStatus: 0,
    connectionErrors: 0,
    retried: 0,
    slowestMs: 0,
    firstUnexpected: "",
  };
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly body: (n: number) => unknown,
    private readonly connections = 4,
    /** pause between one connection's requests (ms): steady, not flat out */
    private readonly pauseMs = 5,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  start(): void {
    this.running = true;
    let n = 0;
    this.loops = Array.from({ length: this.connections }, async () => {
      while (this.running) {
        await this.one(JSON.stringify(this.body(n++)));
        await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
      }
    });
  }

  async stop(): Promise<Tally> {
    this.running = false;
    await Promise.all(this.loops);
    this.agent.destroy();
    return this.tally;
  }

  /** One check: the first try on a kept-alive connection (or a new one), a retry on a new one. */
  async one(body: string, options: { newConnection?: boolean } = {}): Promise<void> {
    const url = new URL("/api/check", this.baseUrl);
    const started = performance.now();
    let reply: Reply;
    try {
      reply = await send(url, body, this.token, options.newConnection ? false : this.agent);
    } catch {
      this.tally.retried += 1;
      try {
        reply = await send(url, body, this.token, false);
      } catch {
        this.tally.connectionErrors += 1;
        return;
      }
    }
    this.tally.slowestMs = Math.max(this.tally.slowestMs, performance.now() - started);
    if (reply.status !== 200 && this.tally.firstUnexpected === "") {
      this.tally.firstUnexpected = `${reply.status} ${reply.body.slice(0, 300)}`;
    }
    if (reply.status >= 500) this.tally.serverErrors += 1;
    else if (reply.status !== 200) this.tally.otherStatus += 1;
    else {
      const decision = JSON.parse(reply.body) as { allowed: boolean; degraded: boolean };
      if (decision.allowed) this.tally.allowed += 1;
      else this.tally.rejected += 1;
      if (decision.degraded) this.tally.degraded += 1;
    }
  }
}

/** One check on a connection of its own; the decision's version and outcome. */
export async function checkOnNewConnection(
  baseUrl: string,
  token: string,
  body: unknown,
): Promise<{ allowed: boolean; configVersion: number }> {
  const reply = await send(new URL("/api/check", baseUrl), JSON.stringify(body), token, false);
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${reply.body}`);
  return JSON.parse(reply.body) as { allowed: boolean; configVersion: number };
}
