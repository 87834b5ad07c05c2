import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { LeanFront, type LeanFrontOptions } from "@/lib/check/http/front/lean-front";

// The lean front's admission on real sockets, with small numbers: a connection that sends
// nothing is closed at the first-byte timeout (one that sent a request is kept), a bound
// per client address (127.0.0.x are distinct loopback peers), and at the cap the longest
// quiet idle connection makes room for a new one while busy ones are kept.

const received = new Set<string>();
const handler: FrontHandler = {
  bodyLimit: () => 1024,
  refuse: () => ({ status: 413, headers: "", body: "too large", close: true }),
  serve(_request, body, respond) {
    const { id, delay } = JSON.parse(body) as { id: string; delay?: number };
    received.add(id);
    const answer = { status: 200, headers: "", body: `front:${id}` };
    if (delay === undefined) respond(answer);
    else setTimeout(() => respond(answer), delay);
  },
};

const check = (body: string): string =>
  `POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

interface Client {
  socket: Socket;
  opened: number;
  text: () => string;
  closedAt: () => number | null;
}

const servers: Server[] = [];
const clients: Socket[] = [];

afterEach(() => {
  for (const socket of clients.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  received.clear();
});

async function front(options: Omit<LeanFrontOptions, "keepAliveMs">): Promise<number> {
  const server = createServer((_request, response) => response.end("node"));
  new LeanFront(server, handler, { keepAliveMs: 5_000, ...options });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

async function open(port: number, from: string, send = ""): Promise<Client> {
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  clients.push(socket);
  let text = "";
  let closedAt: number | null = null;
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.on("close", () => (closedAt = performance.now()));
  await once(socket, "connect");
  const opened = performance.now();
  if (send !== "") socket.write(send);
  return { socket, opened, text: () => text, closedAt: () => closedAt };
}

async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return done();
}

const answered = (client: Client, id: string): boolean => client.text().includes(`front:${id}`);

describe("the lean front's connections", () => {
  it("closes a connection that sends nothing at the first-byte timeout, and keeps one that sent a request", async () => {
    const port = await front({ firstByteTimeoutMs: 300 });
    const silent = await open(port, "127.0.0.1");
    const served = await open(port, "127.0.0.1", check('{"id":"kept"}'));
    expect(await until(() => answered(served, "kept"), 2_000)).toBe(true);
    expect(await until(() => silent.closedAt() !== null, 3_000)).toBe(true);
    const silentMs = (silent.closedAt() as number) - silent.opened;
    expect(silentMs).toBeGreaterThan(250);
    expect(silentMs).toBeLessThan(2_000);
    // well past the first-byte timeout, the served connection is still open (keep-alive 5 s)
    await until(() => performance.now() - served.opened > 1_000, 2_000);
    expect(served.closedAt()).toBeNull();
  });

  it("closes a connection over its address's bound at once, and serves other addresses", async () => {
    const port = await front({ firstByteTimeoutMs: 5_000, maxConnectionsPerAddress: 2 });
    const held = [await open(port, "127.0.0.1"), await open(port, "127.0.0.1")];
    const over = await open(port, "127.0.0.1", check('{"id":"over"}'));
    expect(await until(() => over.closedAt() !== null, 1_000)).toBe(true);
    expect(over.text()).toBe("");
    const other = await open(port, "127.0.0.2", check('{"id":"other"}'));
    expect(await until(() => answered(other, "other"), 1_000)).toBe(true);
    expect(held.map((client) => client.closedAt())).toEqual([null, null]);
  });

  it("at the cap sheds the longest quiet idle connection for a new one, never a busy one", async () => {
    const port = await front({ firstByteTimeoutMs: 5_000, maxConnections: 3 });
    const busy = await open(port, "127.0.0.1", check('{"id":"busy","delay":3000}'));
    expect(await until(() => received.has("busy"), 2_000)).toBe(true);
    const oldest = await open(port, "127.0.0.2");
    const newer = await open(port, "127.0.0.3");
    const late = await open(port, "127.0.0.4", check('{"id":"late"}'));
    expect(await until(() => answered(late, "late"), 1_000)).toBe(true);
    expect(await until(() => oldest.closedAt() !== null, 1_000)).toBe(true);
    expect([busy.closedAt(), newer.closedAt()]).toEqual([null, null]);
    // the busy connection's answer still comes
    expect(await until(() => answered(busy, "busy"), 5_000)).toBe(true);
  });

  it("refuses a new connection at the cap when every connection is busy", async () => {
    const port = await front({ firstByteTimeoutMs: 5_000, maxConnections: 2 });
    const a = await open(port, "127.0.0.1", check('{"id":"a","delay":2000}'));
    const b = await open(port, "127.0.0.2", check('{"id":"b","delay":2000}'));
    expect(await until(() => received.has("a") && received.has("b"), 2_000)).toBe(true);
    const refused = await open(port, "127.0.0.3", check('{"id":"refused"}'));
    expect(await until(() => refused.closedAt() !== null, 1_000)).toBe(true);
    expect(refused.text()).toBe("");
    expect(await until(() => answered(a, "a") && answered(b, "b"), 4_000)).toBe(true);
  });
});
