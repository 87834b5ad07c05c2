import { describe, expect, it } from "vitest";
import { APP_URL } from "./accounts-fixtures";
import { BOOTSTRAP } from "../integration/admin/http";
import { rawConnect } from "./raw-socket";

// A path whose percent-encoding does not decode (%ff is no UTF-8) used to make Next.js
// throw while decoding route parameters: a plain-text 500. It is the client's mistake: 400,
// in the API's error format under /api/, a page elsewhere. Sent byte for byte over a raw
// socket, since fetch and URL would re-encode the path.

const port = Number(new URL(APP_URL).port);

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

async function get(path: string, extraHeaders = ""): Promise<RawAnswer> {
  const client = await rawConnect(
    port,
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Connection: close\r\n\r\n`,
  );
  const { text, closed } = await client.closed(30_000);
  expect(closed, `the answer to ${path} ends`).toBe(true);
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, headers: head.toLowerCase(), body: text.slice(split + 4) };
}

/** The body of a chunked or plain answer, read as text. */
function jsonOf(answer: RawAnswer): unknown {
  const start = answer.body.indexOf("{");
  const end = answer.body.lastIndexOf("}");
  return JSON.parse(answer.body.slice(start, end + 1));
}

describe("a malformed percent-encoding in the path", () => {
  it.each([
    ["/api/admin/tenants/%ff%fe/keys", `Authorization: Bearer ${BOOTSTRAP}\r\n`],
    ["/api/admin/tenants/%ff%fe/keys", ""],
    ["/api/admin/tenants/x/alerts/endpoints/%e0%a4", `Authorization: Bearer ${BOOTSTRAP}\r\n`],
    ["/api/%c3%28", ""],
  ])("API %s: 400 invalid_request in the error format", async (path, auth) => {
    const answer = await get(path, auth);
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatch(/content-type: application\/json/);
    expect(jsonOf(answer)).toEqual({
      error: { code: "invalid_request", message: expect.stringMatching(/percent-encoding/) as unknown },
    });
  });

  it.each(["/invite/%ff", "/reset/%ff", "/tenants/%ff%fe", "/tenants/a/alerts%ff"])(
    "page %s: a 400 page, never a 500",
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(400);
      expect(answer.headers).toMatch(/content-type: text\/html/);
      expect(answer.headers).toMatch(/content-security-policy: /);
      expect(answer.body).toContain("Bad request");
      expect(answer.body).not.toContain("%ff");
    },
  );

  it("a well-formed encoding still reaches its route", async () => {
    const answer = await get("/api/admin/tenants/no%2Dsuch/keys", `Authorization: Bearer ${BOOTSTRAP}\r\n`);
    expect(answer.status).toBe(404);
  });
});
