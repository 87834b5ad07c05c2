import { describe, expect, it } from "vitest";
import { parseRequestHead } from "@/lib/check/http/front/request-head";

// The lean front answers only plain check requests (and the release and adjust calls that
// follow a check on the same connection); everything else must read as foreign
// (null), so node:http answers it exactly as it always did.

const head = (lines: string[]): string => lines.join("\r\n");
const plain = (extra: string[] = [], line = "POST /api/check HTTP/1.1"): string =>
  head([line, "Host: localhost", "Authorization: Bearer st_x", "Content-Length: 12", ...extra]);

describe("request heads the lean front answers", () => {
  it("reads a plain check: endpoint, credential, body length", () => {
    expect(parseRequestHead(plain())).toEqual({
      endpoint: "check",
      authorization: "Bearer st_x",
      contentLength: 12,
      close: false,
    });
  });

  it("reads the batch endpoint, a query string, and header names in any case", () => {
    const parsed = parseRequestHead(
      head(["POST /api/check/batch?x=1 HTTP/1.1", "HOST: a", "authorization:Bearer t  ", "CONTENT-LENGTH:3"]),
    );
    expect(parsed).toEqual({ endpoint: "batch", authorization: "Bearer t", contentLength: 3, close: false });
  });

  it("reads the calls that follow a check: a release and an adjustment", () => {
    expect(parseRequestHead(plain([], "POST /api/check/release HTTP/1.1"))).toMatchObject({
      endpoint: "release",
      contentLength: 12,
    });
    expect(parseRequestHead(plain([], "POST /api/check/adjust?a=b HTTP/1.1"))).toMatchObject({
      endpoint: "adjust",
      contentLength: 12,
    });
  });

  it("notes Connection: close among other options, and a missing body length as 0", () => {
    const parsed = parseRequestHead(
      head(["POST /api/check HTTP/1.1", "Host: a", "Connection: keep-alive, Close"]),
    );
    expect(parsed).toMatchObject({ close: true, contentLength: 0, authorization: undefined });
  });
});

describe("foreign requests (left to node:http)", () => {
  const table: Array<[string, string]> = [
    ["another path", plain([], "POST /api/checks HTTP/1.1")],
    ["a path below another endpoint", plain([], "POST /api/check/release/x HTTP/1.1")],
    ["an endpoint the front does not answer", plain([], "POST /api/check/releases HTTP/1.1")],
    ["another method", plain([], "GET /api/check HTTP/1.1")],
    ["HTTP/1.0", plain([], "POST /api/check HTTP/1.0")],
    ["an absolute target", plain([], "POST http://a/api/check HTTP/1.1")],
    ["two spaces in the request line", plain([], "POST  /api/check HTTP/1.1")],
    ["a control character in the target", plain([], "POST /api/check?\x01 HTTP/1.1")],
    ["no Host", head(["POST /api/check HTTP/1.1", "Content-Length: 1"])],
    ["two Hosts", plain(["Host: b"])],
    ["Transfer-Encoding", plain(["Transfer-Encoding: chunked"])],
    ["two Content-Lengths", plain(["Content-Length: 12"])],
    ["a Content-Length that is not digits", plain([], "POST /api/check HTTP/1.1").replace("12", "1 2")],
    ["a signed Content-Length", plain([], "POST /api/check HTTP/1.1").replace("12", "+12")],
    ["Expect", plain(["Expect: 100-continue"])],
    ["Upgrade", plain(["Upgrade: websocket"])],
    ["Connection: upgrade", plain(["Connection: Upgrade"])],
    ["two Authorizations", plain(["Authorization: Bearer other"])],
    ["a folded line", plain([" continued"])],
    ["a line without a colon", plain(["NoColon"])],
    ["white space before the colon", plain(["X-Y : z"])],
    ["a bare LF inside a value", plain(["X-Y: a\nb"])],
    ["a NUL inside a value", plain(["X-Y: a\x00b"])],
  ];
  it.each(table)("%s", (_name, text) => {
    expect(parseRequestHead(text)).toBeNull();
  });
});
