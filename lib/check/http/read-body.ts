import type { IncomingMessage } from "node:http";

// Reads a request body up to a byte limit. Over the limit (by Content-Length up front, or
// while streaming) it stops reading and reports "too_large"; the caller answers 413 and
// closes the connection, so the rest of an oversized body is never buffered. Callback
// style, not a promise: this runs once per check on the lean path.

export type BodyResult = { ok: true; text: string } | { ok: false; problem: "too_large" | "aborted" };

const TOO_LARGE: BodyResult = { ok: false, problem: "too_large" };
const ABORTED: BodyResult = { ok: false, problem: "aborted" };

export function readBody(
  request: IncomingMessage,
  maxBytes: number,
  done: (result: BodyResult) => void,
): void {
  const declared = Number(request.headers["content-length"]);
  if (declared > maxBytes) {
    done(TOO_LARGE);
    return;
  }
  let first: Buffer | null = null;
  let chunks: Buffer[] | null = null;
  let size = 0;
  let finished = false;
  const finish = (result: BodyResult): void => {
    if (finished) return;
    finished = true;
    request.removeListener("data", onData);
    done(result);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > maxBytes) {
      finish(TOO_LARGE);
      return;
    }
    // Most bodies arrive in one chunk: keep it without copying.
    if (first === null) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  request.on("data", onData);
  request.once("end", () => {
    const body = chunks ? Buffer.concat(chunks) : first;
    finish({ ok: true, text: body ? body.toString("utf8") : "" });
  });
  request.once("error", () => finish(ABORTED));
  request.once("close", () => finish(ABORTED));
}
