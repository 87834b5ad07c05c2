// Slow and odd clients (none may hold the server's sockets), on real sockets against a server of our own
// with a 2 s request deadline and a cap of 16 connections: a half-sent request gets 408
// and the close on both paths (the lean front, and node:http in the app process), a head
// with bare LF line endings is answered, and past the cap an idle connection makes room.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppProcess, freePort } from "@/tests/integration/check/processes";
import { rawConnect, type RawExchange } from "./raw-socket";

const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
const DEADLINE_MS = 2_000;
const CAP = 16;
let app: AppProcess;
let port = 0;

beforeAll(async () => {
  port = await freePort();
  app = new AppProcess(port, {
    SLUICE_REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
    SLUICE_MAX_CONNECTIONS: String(CAP),
  });
  await app.start();
}, 90_000);

afterAll(async () => {
  await app.stop();
});

const checkHead = (length: number, extra = ""): string =>
  `POST /api/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${BOOTSTRAP}\r\n${extra}` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("slow clients", () => {
  it("the lean front answers a half-sent check body 408 at the deadline, then closes", async () => {
    const client = await rawConnect(port, checkHead(100) + '{"tenant":');
    const { text, closed, ms } = await client.closed(DEADLINE_MS + 3_000);
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(DEADLINE_MS - 100);
  });

  it("the lean front answers a half-sent head 408 at the deadline", async () => {
    const client = await rawConnect(port, "POST /api/check HTTP/1.1\r\nHost: x\r\n");
    const { text, closed } = await client.closed(DEADLINE_MS + 3_000);
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("node:http (the app process) answers a half-sent admin body 408 at the deadline", async () => {
    const head =
      `PUT /api/admin/config HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${BOOTSTRAP}\r\n` +
      "Content-Type: application/yaml\r\nContent-Length: 1000\r\n\r\ntenants:\n";
    const client = await rawConnect(port, head);
    const { text, closed, ms } = await client.closed(DEADLINE_MS + 3_000);
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(DEADLINE_MS - 100);
  });

  it("a head with bare LF line endings is answered, not left hanging", async () => {
    const health = await rawConnect(port, "GET /api/health HTTP/1.1\nHost: x\n\n");
    expect(await health.received(/^HTTP\/1\.1 (200|400|503) /, 1_500)).toBe(true);
    const body = '{"tenant":"no-such-tenant"}';
    const check = await rawConnect(
      port,
      `POST /api/check HTTP/1.1\nHost: x\nAuthorization: Bearer ${BOOTSTRAP}\n` +
        `Content-Length: ${body.length}\n\n${body}`,
    );
    expect(await check.received(/^HTTP\/1\.1 (200|400) /, 1_500)).toBe(true);
    health.socket.destroy();
    check.socket.destroy();
  });

  it("past the cap, the longest quiet idle connection makes room for a new one", async () => {
    const held: RawExchange[] = [];
    for (let i = 0; i < CAP; i++) held.push(await rawConnect(port));
    const late = await rawConnect(port, checkHead(2) + "{}");
    expect(await late.received(/^HTTP\/1\.1 400 /, 1_500)).toBe(true);
    // exactly one held connection was closed for it, with nothing said
    const closedOne = async (): Promise<number> =>
      (await Promise.all(held.map((client) => client.closed(0)))).filter((result) => result.closed).length;
    const deadline = performance.now() + 1_000;
    while ((await closedOne()) < 1 && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(await closedOne()).toBe(1);
    expect(held.map((client) => client.text()).join("")).toBe("");
    for (const client of held) client.socket.destroy();
    late.socket.destroy();
  });
});
