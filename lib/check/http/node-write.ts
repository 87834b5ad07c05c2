import type { ServerResponse } from "node:http";
import type { HttpAnswer } from "@/lib/check/answer";

// Writes an answer on node:http (connections the lean front handed over): one writeHead
// with every header, one end. Node adds Date and its Connection/Keep-Alive fields itself.

export function writeAnswer(response: ServerResponse, answer: HttpAnswer, head = false): void {
  const headers: string[] = [];
  for (const line of answer.headers.split("\r\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) headers.push(line.slice(0, colon), line.slice(colon + 2));
  }
  headers.push("content-length", String(answer.body.length));
  if (answer.close) headers.push("connection", "close");
  response.writeHead(answer.status, headers);
  response.end(head ? undefined : answer.body);
}
