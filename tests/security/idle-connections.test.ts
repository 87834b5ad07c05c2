// Idle connections cannot shut the check port (docs/security.md, "Connections"), on a
// server of our own with a cap of 1,024 connections and 512 per address: a thousand and
// more connections that never send a byte fill the cap from two loopback addresses
// (127.0.0.0/8 is all loopback on Linux), those over one address's bound are closed at
// once, a check from a third address is still answered at once, well before any idle connection
// times out (the longest quiet idle connection makes room for it), and the idle ones are closed at the first-byte timeout.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppProcess, freePort } from "@/tests/integration/check/processes";

const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
const CAP = 1_024;
const PER_ADDRESS = 512;
const OVER_BOUND = 1_000;
// long enough for the connections to be opened on a loaded machine before any times out
const FIRST_BYTE_MS = 10_000;
let app: AppProcess;
let port = 0;

beforeAll(async () => {
  port = await freePort();
  app = new AppProcess(port, {
    SLUICE_MAX_CONNECTIONS: String(CAP),
    SLUICE_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    SLUICE_FIRST_BYTE_TIMEOUT_MS: String(FIRST_BYTE_MS),
  });
  await app.start();
}, 90_000);

afterAll(async () => {
  await app.stop();
});

interface Idle {
  socket: Socket;
  opened: number;
  closedAt: number | null;
  text: string;
}

async function openIdle(from: string): Promise<Idle> {
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  const idle: Idle = { socket, opened: 0, closedAt: null, text: "" };
  socket.on("data", (chunk: Buffer) => (idle.text += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.on("close", () => (idle.closedAt = performance.now()));
  await once(socket, "connect");
  idle.opened = performance.now();
  return idle;
}

/** `count` connections from `from`, opened a batch at a time (the listen backlog is finite). */
async function openMany(from: string, count: number): Promise<Idle[]> {
  const all: Idle[] = [];
  for (let done = 0; done < count; done += 128) {
    const batch = Array.from({ length: Math.min(128, count - done) }, () => openIdle(from));
    all.push(...(await Promise.all(batch)));
  }
  return all;
}

async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

const closedCount = (list: Idle[]): number => list.filter((idle) => idle.closedAt !== null).length;

describe("idle connections", () => {
  it("cannot keep a check out, and are closed at the first-byte timeout", async () => {
    const other = await openMany("127.0.0.3", PER_ADDRESS);
    const flood = await openMany("127.0.0.1", PER_ADDRESS + OVER_BOUND);
    const all = [...other, ...flood];
    try {
      // over the address's bound: closed at accept, with nothing said (the client may have
      // raced ahead of the server's accepts here, so the bound is from the last connect)
      expect(await until(() => closedCount(flood) >= OVER_BOUND, 5_000)).toBe(true);
      const refused = flood.filter((idle) => idle.closedAt !== null);
      expect(refused.map((idle) => idle.text).join("")).toBe("");
      // the cap is full of idle connections, none timed out yet
      const held = all.filter((idle) => idle.closedAt === null);
      expect(held.length).toBe(CAP);

      const body = '{"tenant":"no-such-tenant"}';
      const started = performance.now();
      const check = await openIdle("127.0.0.2");
      check.socket.write(
        `POST /api/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${BOOTSTRAP}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      // answered at once: long before any idle connection reaches its first-byte timeout, so
      // it did not wait for one to go (a second on a quiet machine; a loaded one's scheduler
      // may hold this process or the server for a few)
      expect(await until(() => /^HTTP\/1\.1 \d{3} /.test(check.text), FIRST_BYTE_MS / 2)).toBe(true);
      expect(performance.now() - started).toBeLessThan(FIRST_BYTE_MS / 2);
      // it took the place of one idle connection, and only one
      expect(await until(() => closedCount(held) >= 1, 1_000)).toBe(true);
      expect(closedCount(held)).toBe(1);
      check.socket.destroy();

      // the rest are closed at the first-byte timeout
      const rest = held.filter((idle) => idle.closedAt === null);
      expect(await until(() => closedCount(rest) === rest.length, FIRST_BYTE_MS + 5_000)).toBe(true);
      const lived = rest.map((idle) => (idle.closedAt as number) - idle.opened);
      expect(Math.min(...lived)).toBeGreaterThan(FIRST_BYTE_MS - 500);
      expect(Math.max(...lived)).toBeLessThan(FIRST_BYTE_MS + 5_000);
    } finally {
      for (const idle of all) idle.socket.destroy();
    }
  }, 60_000);
});
