import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, BOOTSTRAP, waitForVersion } from "./http";

// The running app's port, on one raw keep-alive connection: checks answered by the lean
// front, then a request it hands to node:http (the health page, served by Next), then a
// check again, now through node:http; all answered in order, pipelined in one write.

const slug = unique("front");

beforeAll(async () => {
  const setup = await setupTenants([{ slug, plan: "free", limits: FREE_PLAN_OFF, keys: [] }]);
  await waitForVersion(setup.version);
});

afterAll(closeClients);

function checkRequest(host: string, body: string): string {
  return (
    `POST /api/check HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${BOOTSTRAP}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The body of a chunked response starting at `at`, and where the response ends; null if incomplete. */
function dechunk(text: string, at: number): { body: string; end: number } | null {
  let body = "";
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (size === 0) return text.length >= lineEnd + 4 ? { body, end: lineEnd + 4 } : null;
    if (text.length < lineEnd + 2 + size + 2) return null;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Splits the bytes of several HTTP/1.1 responses (Content-Length or chunked) apart. */
function responses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const [statusLine = "", ...lines] = text.slice(at, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(" ")[1]);
    if (headers["transfer-encoding"] === "chunked") {
      const chunked = dechunk(text, end + 4);
      if (!chunked) break;
      out.push({ status, headers, body: chunked.body });
      at = chunked.end;
      continue;
    }
    const length = Number(headers["content-length"] ?? 0);
    if (text.length < end + 4 + length) break;
    out.push({ status, headers, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

describe("the app's port on one keep-alive connection", () => {
  it("answers checks, then a request for Next, then a check, in order", async () => {
    const url = new URL(APP_URL);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, "connect");
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    const body = JSON.stringify({ tenant: slug, route: "GET /x" });
    socket.write(
      checkRequest(url.host, body) +
        checkRequest(url.host, body) +
        `GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n` +
        checkRequest(url.host, body),
    );
    const deadline = Date.now() + 10_000;
    while (responses(text).length < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.destroy();
    const got = responses(text);
    expect(got.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const i of [0, 1, 3]) {
      const decision = JSON.parse(got[i]?.body ?? "{}") as { tenant: string; reason: string };
      expect(decision).toMatchObject({ tenant: slug, reason: "ok" });
      expect(got[i]?.headers["content-type"]).toBe("application/json");
      expect(got[i]?.headers.date).toBeTruthy();
    }
    expect(JSON.parse(got[2]?.body ?? "{}")).toHaveProperty("postgres");
  });
});
