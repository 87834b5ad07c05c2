import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, BOOTSTRAP, waitForVersion } from "./http";

// The check front answers POST /api/check/release and /api/check/adjust itself, so a
// keep-alive connection that sends one stays on the front (issue 39: handed to the app
// process, every later check on it came back over the private socket at a tenth of the
// rate). What tells the front's answers apart on the wire: it writes its own
// `connection: keep-alive` and `keep-alive: timeout=...` lines, lower case
// (lib/check/http/front/response-text.ts), where node:http, which serves a connection handed
// to the app process, writes them as `Connection:` and `Keep-Alive:`.

const slug = unique("follow");

beforeAll(async () => {
  const { version } = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "in-flight", by: "tenant", algorithm: "concurrency", limit: 5, window: "1m" },
        { name: "hourly", by: "tenant", algorithm: "fixed_window", limit: 100, window: "1h" },
      ],
    },
  ]);
  await waitForVersion(version);
  await waitForVersion(version, APP_URL_2);
});
afterAll(closeClients);

interface Reply {
  status: number;
  head: string;
  body: Record<string, unknown>;
}

/** One keep-alive connection: a request is written once the answer before it was read whole. */
class Connection {
  private text = "";
  private waiting: (() => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      this.text += data;
      this.waiting?.();
    });
  }

  static async open(url: string): Promise<Connection> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    return new Connection(socket);
  }

  async post(path: string, body: unknown): Promise<Reply> {
    const json = JSON.stringify(body);
    return this.send(
      `POST ${path} HTTP/1.1\r\nHost: sluice\r\nAuthorization: Bearer ${BOOTSTRAP}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
  }

  /** GET /api/health: a request the front hands to the app process, with the connection. */
  health(): Promise<Reply> {
    return this.send("GET /api/health HTTP/1.1\r\nHost: sluice\r\n\r\n");
  }

  private async send(request: string): Promise<Reply> {
    this.socket.write(request);
    for (;;) {
      const reply = this.take();
      if (reply !== null) return reply;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  /** The first whole answer read, or null while it is incomplete. */
  private take(): Reply | null {
    const end = this.text.indexOf("\r\n\r\n");
    if (end < 0) return null;
    const head = this.text.slice(0, end);
    const framed = /\r\ntransfer-encoding: *chunked/i.test(head)
      ? chunked(this.text, end + 4)
      : sized(this.text, end + 4, Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? "0"));
    if (framed === null) return null;
    this.text = this.text.slice(framed.next);
    const body = (framed.body === "" ? {} : JSON.parse(framed.body)) as Record<string, unknown>;
    return { status: Number(head.slice(9, 12)), head, body };
  }
}

type Framed = { body: string; next: number } | null;

const sized = (text: string, at: number, length: number): Framed =>
  text.length < at + length ? null : { body: text.slice(at, at + length), next: at + length };

/** A chunked body (the app process's own answers, such as /api/health, may come so). */
function chunked(text: string, at: number): Framed {
  let body = "";
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (text.length < lineEnd + 2 + size + 2) return null;
    if (size === 0) return { body, next: lineEnd + 4 };
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Answered by the check front, not by node:http in the app process. */
const byFront = (reply: Reply): boolean =>
  reply.head.includes("\r\nconnection: keep-alive\r\nkeep-alive: timeout=") &&
  !reply.head.includes("Keep-Alive:");

describe("releases and adjustments on the check front", () => {
  it("keeps a connection that released a lease and refunded a check on the front", async () => {
    const connection = await Connection.open(APP_URL);
    try {
      const first = await connection.post("/api/check", { tenant: slug, adjustable: true });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ allowed: true });
      const released = await connection.post("/api/check/release", { lease: first.body.lease });
      expect(released.status).toBe(200);
      expect(released.body).toEqual({ released: true });
      const refunded = await connection.post("/api/check/adjust", {
        checkId: first.body.checkId,
        amount: -1,
      });
      expect(refunded.status).toBe(200);
      expect(refunded.body).toMatchObject({ replayed: false, held: 0 });
      const after = await connection.post("/api/check", { tenant: slug });
      expect(after.body).toMatchObject({ allowed: true });
      for (const reply of [first, released, refunded, after]) expect(byFront(reply), reply.head).toBe(true);
    } finally {
      connection.close();
    }
  });

  it("answers them alike on a connection the app process holds (passed back to the front)", async () => {
    const connection = await Connection.open(APP_URL);
    try {
      expect((await connection.health()).status).toBe(200);
      const first = await connection.post("/api/check", { tenant: slug, adjustable: true });
      expect(first.body).toMatchObject({ allowed: true });
      const released = await connection.post("/api/check/release", { lease: first.body.lease });
      expect(released.body).toEqual({ released: true });
      const refunded = await connection.post("/api/check/adjust", {
        checkId: first.body.checkId,
        amount: -1,
      });
      expect(refunded.body).toMatchObject({ replayed: false, held: 0 });
      const notLease = await connection.post("/api/check/release", { lease: 5 });
      expect(notLease.status).toBe(400);
      expect(notLease.body).toMatchObject({ error: { code: "invalid_request", path: "lease" } });
      for (const reply of [first, released, refunded, notLease])
        expect(byFront(reply), reply.head).toBe(false);
    } finally {
      connection.close();
    }
  });

  it("answers a release's and an adjustment's refusals as node:http did, naming the field", async () => {
    const connection = await Connection.open(APP_URL);
    try {
      const notLease = await connection.post("/api/check/release", { lease: 5 });
      expect(notLease.status).toBe(400);
      expect(notLease.body).toMatchObject({ error: { code: "invalid_request", path: "lease" } });
      const notIssued = await connection.post("/api/check/adjust", { checkId: "a.b", amount: -1 });
      expect(notIssued.status).toBe(400);
      expect(notIssued.head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(notIssued.body).toMatchObject({ error: { path: "checkId" } });
      const after = await connection.post("/api/check", { tenant: slug });
      expect(after.body).toMatchObject({ allowed: true });
      expect(byFront(after)).toBe(true);
      // a check's lease released, then released again: idempotent, answered on the front too
      const again = await connection.post("/api/check/release", { lease: after.body.lease });
      expect(again.body).toEqual({ released: true });
      const twice = await connection.post("/api/check/release", { lease: after.body.lease });
      expect(twice.body).toEqual({ released: false });
      expect(byFront(twice)).toBe(true);
    } finally {
      connection.close();
    }
  });
});
