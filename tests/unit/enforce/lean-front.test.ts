import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { LeanFront } from "@/lib/check/http/front/lean-front";
import { registry } from "@/lib/check/check-metrics";

// The lean front on real sockets in front of a real node:http server: plain check requests
// are answered by the front, in request order even when answered out of order; the first
// request it does not take (and all after it) reaches node:http with every byte intact.

const handler: FrontHandler = {
  bodyLimit: (endpoint) => (endpoint === "check" ? 64 : 1024),
  refuse: () => ({ status: 413, headers: "", body: "too large", close: true }),
  serve(request, body, respond) {
    const { id, delay } = JSON.parse(body) as { id: string; delay?: number };
    // batch answers are bytes, as the real batch endpoint's (assembled in place)
    const text = `front:${request.endpoint}:${id}`;
    const answer = {
      status: 200,
      headers: "x-by: front\r\n",
      body: request.endpoint === "batch" ? Buffer.from(text) : text,
    };
    if (delay === undefined) respond(answer);
    else setTimeout(() => respond(answer), delay);
  },
};

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.end(`node:${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`);
    });
  });
  new LeanFront(server, handler, { keepAliveMs: 5_000 });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const check = (body: string, path = "/api/check", extra = ""): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Bodies of the responses in `text`, in order. */
function bodies(text: string): string[] {
  return text
    .split(/(?=HTTP\/1\.1 )/)
    .filter(Boolean)
    .map((response) => response.slice(response.indexOf("\r\n\r\n") + 4));
}

/** Sends `parts` (one write each, `gapMs` apart) and reads until `count` responses or the close. */
async function exchange(
  parts: string[],
  count: number,
  gapMs = 0,
): Promise<{ text: string; closed: boolean }> {
  const socket: Socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let text = "";
  let closed = false;
  socket.on("data", (data: Buffer) => (text += data.toString()));
  const done = new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (closed || (text.match(/HTTP\/1\.1 /g) ?? []).length >= count) {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  });
  socket.on("close", () => (closed = true));
  for (const part of parts) {
    socket.write(part);
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  await done;
  await new Promise((resolve) => setTimeout(resolve, 30));
  socket.destroy();
  return { text, closed };
}

describe("the lean front", () => {
  it("answers pipelined checks in request order, though answered out of order, text and bytes", async () => {
    const { text } = await exchange(
      [
        check('{"id":"1","delay":40}') +
          check('{"id":"2"}') +
          check('{"id":"3","delay":10}', "/api/check/batch") +
          check('{"id":"4"}'),
      ],
      4,
    );
    expect(bodies(text)).toEqual(["front:check:1", "front:check:2", "front:batch:3", "front:check:4"]);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain("x-by: front\r\ncontent-length: 13\r\ndate: ");
    expect(text).toContain("connection: keep-alive\r\nkeep-alive: timeout=5\r\n");
  });

  it("answers a release and an adjustment itself: the connection stays on the front for the checks after them", async () => {
    const { text } = await exchange(
      [
        check('{"id":"1"}') +
          check('{"id":"2"}', "/api/check/release") +
          check('{"id":"3"}', "/api/check/adjust") +
          check('{"id":"4"}'),
      ],
      4,
    );
    expect(bodies(text)).toEqual(["front:check:1", "front:release:2", "front:adjust:3", "front:check:4"]);
  });

  it("reads a request sent a few bytes at a time", async () => {
    const request = check('{"id":"slow"}');
    const parts = request.match(/[\s\S]{1,7}/g) ?? [];
    const { text } = await exchange(parts, 1, 2);
    expect(bodies(text)).toEqual(["front:check:slow"]);
  });

  it("hands the connection to node:http at the first foreign request, bytes intact", async () => {
    const handOffs = (): number =>
      Number(/^sluice_front_handoffs_total (\d+)$/m.exec(registry.render())?.[1] ?? NaN);
    const before = handOffs();
    const { text } = await exchange(
      [
        check('{"id":"1","delay":30}') +
          "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n" +
          check('{"id":"after"}'),
      ],
      3,
    );
    expect(bodies(text)).toEqual([
      "front:check:1",
      "node:GET /api/health ",
      'node:POST /api/check {"id":"after"}',
    ]);
    // counted once per connection, for /api/metrics (front-metrics.ts)
    expect(handOffs()).toBe(before + 1);
  });

  it("leaves a chunked body, an Expect and a malformed head to node:http", async () => {
    const chunked =
      'POST /api/check HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n';
    expect(bodies((await exchange([chunked], 1)).text)).toEqual(['node:POST /api/check {"a":1}']);
    const folded = "POST /api/check HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\nContent-Length: 0\r\n\r\n";
    expect((await exchange([folded], 1)).text).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("refuses a body over the limit without reading it, and closes", async () => {
    const { text, closed } = await exchange([check(`{"id":"${"x".repeat(100)}"}`) + check('{"id":"2"}')], 2);
    expect(text).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(text).toContain("connection: close\r\n");
    expect(bodies(text)).toEqual(["too large"]);
    expect(closed).toBe(true);
  });

  it("closes after the answer when the client asks, and answers a client that half-closed", async () => {
    const asked = await exchange(
      [check('{"id":"1"}', "/api/check", "Connection: close\r\n") + check('{"id":"2"}')],
      2,
    );
    expect(bodies(asked.text)).toEqual(["front:check:1"]);
    expect(asked.closed).toBe(true);

    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    socket.end(check('{"id":"late","delay":20}'));
    await once(socket, "close");
    expect(bodies(text)).toEqual(["front:check:late"]);
  });
});
