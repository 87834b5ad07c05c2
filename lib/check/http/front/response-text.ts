import type { HttpAnswer } from "@/lib/check/answer";
import { flatText } from "@/lib/check/render/flat-text";

// The head of an HTTP/1.1 response for an answer, with the fields node:http would add: Date
// (kept per second, as node does), Connection and Keep-Alive.

const REASONS: Record<number, string> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

let dateLine = "";
let dateTimer: NodeJS.Timeout | null = null;

function refreshDate(): void {
  dateLine = flatText(`date: ${new Date().toUTCString()}\r\n`);
}

/** Keeps the Date field current once a second while a front is running. */
export function startDateClock(): void {
  if (dateTimer) return;
  refreshDate();
  dateTimer = setInterval(refreshDate, 1_000);
  dateTimer.unref();
}

export function stopDateClock(): void {
  if (dateTimer) clearInterval(dateTimer);
  dateTimer = null;
}

let keepAlive = { seconds: -1, line: "" };

function keepAliveLine(seconds: number): string {
  if (keepAlive.seconds !== seconds)
    keepAlive = { seconds, line: flatText(`connection: keep-alive\r\nkeep-alive: timeout=${seconds}\r\n`) };
  return keepAlive.line;
}

/** The status line and header fields of an answer, up to and with the blank line. */
export function responseHead(answer: HttpAnswer, keepAliveSeconds: number, close: boolean): string {
  if (dateTimer === null) refreshDate();
  const connection = close ? "connection: close\r\n" : keepAliveLine(keepAliveSeconds);
  const reason = REASONS[answer.status] ?? "Unknown";
  // bodies are ASCII or bytes (answer.ts): their length is their byte length
  return (
    `HTTP/1.1 ${answer.status} ${reason}\r\n${answer.headers}` +
    `content-length: ${answer.body.length}\r\n${dateLine}${connection}\r\n`
  );
}
