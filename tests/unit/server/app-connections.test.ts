import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AppConnections } from "@/lib/server/app-connections";

// The app process's admission on real sockets, taken over by node:http as server-app.ts
// does: at the cap, a keep-alive connection waiting after an answer makes room; one whose
// first request is still under way (or not yet complete) is kept.

const servers: Server[] = [];
const clients: Socket[] = [];

afterEach(() => {
  for (const socket of clients.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
});

async function app(maxConnections: number, maxPerAddress: number) {
  const connections = new AppConnections({ maxConnections, maxPerAddress });
  let answered = 0;
  const http = createHttpServer((request, response) => {
    connections.requestStarted(request, response);
    response.once("close", () => (answered += 1));
    response.end("ok");
  });
  const server = createServer((socket) => {
    if (typeof connections.adopt(socket) !== "string") http.emit("connection", socket);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  return { connections, port, answered: () => answered };
}

interface Client {
  text: () => string;
  closed: () => boolean;
}

async function open(port: number, from: string, send: string): Promise<Client> {
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  clients.push(socket);
  let text = "";
  let closed = false;
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.on("close", () => (closed = true));
  await once(socket, "connect");
  socket.write(send);
  return { text: () => text, closed: () => closed };
}

async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return done();
}

const GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

describe("the app process's connections", () => {
  it("at the cap sheds a keep-alive connection waiting after its answer, not one with a request begun", async () => {
    const { connections, port, answered } = await app(2, 10);
    const served = await open(port, "127.0.0.1", GET);
    expect(await until(() => answered() === 1, 2_000)).toBe(true);
    const begun = await open(port, "127.0.0.2", "GET / HTTP/1.1\r\n");
    expect(await until(() => connections.open === 2, 2_000)).toBe(true);
    const late = await open(port, "127.0.0.3", GET);
    expect(await until(() => /^HTTP\/1\.1 200 /.test(late.text()), 1_000)).toBe(true);
    expect(await until(() => served.closed(), 1_000)).toBe(true);
    expect(begun.closed()).toBe(false);
  });

  it("refuses a connection over its address's bound, and one at the cap when none is idle", async () => {
    const { connections, port } = await app(2, 1);
    const first = await open(port, "127.0.0.1", "GET / HTTP/1.1\r\n");
    expect(await until(() => connections.open === 1, 2_000)).toBe(true);
    const again = await open(port, "127.0.0.1", GET);
    expect(await until(() => again.closed(), 1_000)).toBe(true);
    expect(again.text()).toBe("");
    await open(port, "127.0.0.2", "GET / HTTP/1.1\r\n");
    expect(await until(() => connections.open === 2, 2_000)).toBe(true);
    const full = await open(port, "127.0.0.3", GET);
    expect(await until(() => full.closed(), 1_000)).toBe(true);
    expect(full.text()).toBe("");
    expect(first.closed()).toBe(false);
  });
});
