import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, setupTenants, unique } from "../integration/check/setup";
import { sleep, waitForVersion } from "../integration/check/http";
import { AppProcess } from "../integration/check/processes";
import { BOOTSTRAP, INSTANCE_ENV, LB_PORT, settledUsage, tenantWith } from "./fleet";

// A balancer keeps its connections to an instance open and sends any request on any of
// them: a check may come on a connection the app process holds (its first request was
// for the dashboard or a health check). The app passes it to the front, which decides and
// counts it. At SIGTERM the app must answer such a check before it exits: if it exits
// first, the balancer sees the connection close with no answer and sends the check again
// to another instance, where it is counted a second time.

const slug = unique("app-drain");
const app = new AppProcess(LB_PORT + 4, INSTANCE_ENV);

beforeAll(async () => {
  const setup = await setupTenants([tenantWith(slug, [{ name: "per-subject", by: "subject", limit: 5 }])]);
  await app.start();
  await waitForVersion(setup.version, app.url);
}, 120_000);

afterAll(async () => {
  await app.stop();
  await closeClients();
});

/** Reads from `socket` until `done(text)` holds or the socket ends; the text read. */
function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const finish = () => {
      socket.removeListener("data", onData);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (done(text)) finish();
    };
    socket.on("data", onData);
    socket.once("close", finish);
  });
}

/** A whole response: its Content-Length of body, or a chunked body's last chunk. */
const answered = (text: string) => {
  const head = text.indexOf("\r\n\r\n");
  if (head < 0) return false;
  const length = /content-length: (\d+)/i.exec(text.slice(0, head));
  if (length === null) return text.endsWith("\r\n0\r\n\r\n");
  return text.length >= head + 4 + Number(length[1]);
};

describe("SIGTERM with a check under way on a connection the app process holds", () => {
  it(
    "answers the check, closes the connection and exits within 5 s; the check is counted once",
    { timeout: 30_000 },
    async () => {
      const since = Date.now();
      const socket = connect(app.port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      // a health check first: the front hands this connection to the app process
      socket.write(`GET /api/metrics HTTP/1.1\r\nhost: sluice\r\n\r\n`);
      expect(await readUntil(socket, answered)).toMatch(/^HTTP\/1\.1 200/);

      // a check whose body is still arriving when the instance is told to stop
      const body = JSON.stringify({ tenant: slug, subject: "one" });
      const head =
        `POST /api/check HTTP/1.1\r\nhost: sluice\r\nauthorization: Bearer ${BOOTSTRAP}\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      const reply = readUntil(socket, answered);
      socket.write(head + body.slice(0, 10));
      await sleep(200);
      const started = performance.now();
      const stopped = app.stop();
      await sleep(300);
      socket.write(body.slice(10));
      const text = await reply;
      await stopped;
      const exitMs = performance.now() - started;
      socket.destroy();

      expect(text).toMatch(/^HTTP\/1\.1 200/);
      // its last answer: a balancer sends nothing more on a connection about to close
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ allowed: true });
      expect(exitMs).toBeLessThan(5_000);

      // counted once: read through a fresh instance on the same stores
      await app.start();
      expect(await settledUsage(app.url, slug, since, 1)).toEqual({ allowed: 1, rejected: 0 });
    },
  );
});
