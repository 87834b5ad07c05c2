// POST /api/check over keep-alive connections of its own (node:http, one socket per
// client): the front answers them itself, never handing them to the app.
import { Agent, request } from "node:http";
import { z } from "zod";

const Decision = z.object({
  allowed: z.boolean(),
  reason: z.string(),
  configVersion: z.number().optional(),
  limits: z.array(z.object({ name: z.string(), limit: z.number() })).optional(),
});
export type Decision = z.infer<typeof Decision>;

export interface CheckBody {
  apiKey?: string;
  tenant?: string;
  route?: string;
  dryRun?: boolean;
}

export class CheckClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    const parsed = new URL(url);
    // the servers listen on 127.0.0.1 only: never try ::1 first
    this.host = parsed.hostname === "localhost" ? "127.0.0.1" : parsed.hostname;
    this.port = Number(parsed.port);
  }

  /** One check: its decision and how long it took (ms, from the request to the whole answer). */
  check(body: CheckBody): Promise<{ ms: number; status: number; decision: Decision | null }> {
    const payload = JSON.stringify(body);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          method: "POST",
          path: "/api/check",
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.token}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(payload),
          },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const ms = performance.now() - started;
            const status = res.statusCode ?? 0;
            const parsed =
              status === 200 ? Decision.safeParse(JSON.parse(Buffer.concat(chunks).toString())) : null;
            resolve({ ms, status, decision: parsed?.success ? parsed.data : null });
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("check timed out after 30 s")));
      req.on("error", reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The value of limit `name` in a decision, or null when it is not among its limits. */
export function limitValue(decision: Decision | null, name: string): number | null {
  return decision?.limits?.find((l) => l.name === name)?.limit ?? null;
}
