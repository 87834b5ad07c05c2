import { once } from "node:events";
import { createServer } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { LeanFront } from "@/lib/check/http/front/lean-front";
import { parseEnv, workerCount } from "@/lib/shared/env";
import { waitFor } from "@/tests/wait-for";

// Graceful shutdown of the lean front on real sockets: an idle keep-alive connection closes
// at once; a check in flight and a request partly received are still answered, with
// `Connection: close`, and then their connections close; drain() resolves when none is left.

/** the ids of the checks the handler was given */
const served = new Set<string>();
const handler: FrontHandler = {
  bodyLimit: () => 1024,
  refuse: () => ({ status: 413, headers: "", body: "too large", close: true }),
  serve(_request, body, respond) {
    const { id, delay } = JSON.parse(body) as { id: string; delay: number };
    served.add(id);
    setTimeout(() => respond({ status: 200, headers: "", body: `answer:${id}` }), delay);
  },
};

const check = (body: string): string =>
  `POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

interface Client {
  socket: Socket;
  text: () => string;
  closed: Promise<void>;
}

async function client(port: number): Promise<Client> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let text = "";
  socket.on("data", (data: Buffer) => (text += data.toString()));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, text: () => text, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("lean front drain", () => {
  it("closes idle connections, answers what is in flight with Connection: close, then resolves", async () => {
    const server = createServer();
    const front = new LeanFront(server, handler, { keepAliveMs: 5_000 });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as AddressInfo).port;

    const idle = await client(port);
    idle.socket.write(check('{"id":"idle","delay":0}'));
    while (!idle.text().includes("answer:idle")) await sleep(5);
    const busy = await client(port);
    busy.socket.write(check('{"id":"busy","delay":150}'));
    const partial = await client(port);
    const body = '{"id":"partial","delay":0}';
    const whole = check(body);
    partial.socket.write(whole.slice(0, whole.length - 5));
    await sleep(50);

    server.close();
    const drained = front.drain(2_000);
    await idle.closed;
    expect(busy.text()).toBe("");
    partial.socket.write(whole.slice(whole.length - 5));
    await Promise.all([busy.closed, partial.closed, drained]);
    for (const [c, id] of [
      [busy, "busy"],
      [partial, "partial"],
    ] as const) {
      expect(c.text()).toMatch(/^HTTP\/1\.1 200 /);
      expect(c.text().toLowerCase()).toContain("connection: close\r\n");
      expect(c.text()).toContain(`answer:${id}`);
    }
    expect(idle.text()).not.toContain("connection: close");
  });

  it("drops what is still owed at the deadline", async () => {
    const server = createServer();
    const front = new LeanFront(server, handler, { keepAliveMs: 5_000 });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const slow = await client((server.address() as AddressInfo).port);
    slow.socket.write(check('{"id":"slow","delay":5000}'));
    await waitFor(() => served.has("slow"), "the slow check to be in flight", 5_000, 5);
    server.close();
    const started = Date.now();
    await front.drain(200);
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(slow.text()).toBe("");
  });
});

describe("SLUICE_WORKERS", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/db" };

  it("is a count from 1 to 64 or auto, 1 by default", () => {
    expect(parseEnv(base).SLUICE_WORKERS).toBe("1");
    expect(workerCount(parseEnv({ ...base, SLUICE_WORKERS: "4" }).SLUICE_WORKERS)).toBe(4);
    expect(workerCount("auto", 6)).toBe(6);
    expect(workerCount("auto", 0)).toBe(1);
    for (const bad of ["0", "65", "two", "-1", "1.5", ""]) {
      expect(() => parseEnv({ ...base, SLUICE_WORKERS: bad })).toThrow(
        /SLUICE_WORKERS must be a number of processes/,
      );
    }
  });
});
