import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { ErrorBody } from "@/lib/check/types";
import { asciiJson } from "@/lib/shared/ascii-json";

// Answers of the check endpoints, independent of the transport that writes them: the lean
// front (lib/enforce/http/front) puts them on the socket as they are, node:http
// (connections handed to it) splits the header lines back into writeHead's form. Errors use
// docs/api.md's shape; decisions carry the RateLimit headers. Everything here is ASCII (bodies
// are written by asciiJson or the decision templates), so a body's length in characters is
// its length in bytes and it is written one byte per character.

export interface HttpAnswer {
  status: number;
  /** header lines, each "name: value\r\n"; not content-length, date or connection */
  headers: string;
  /** ASCII text, or bytes (a batch's answer, assembled in place) */
  body: string | Buffer;
  /** close the connection after this answer (a 413: the rest of the body is not read) */
  close?: boolean;
}

export const JSON_HEADERS = "content-type: application/json\r\ncache-control: no-store\r\n";

function headerLines(extra: Record<string, string> | undefined): string {
  let lines = JSON_HEADERS;
  if (extra) for (const name in extra) lines += `${name}: ${extra[name]}\r\n`;
  return lines;
}

export function jsonAnswer(
  status: number,
  body: unknown,
  extra?: Record<string, string>,
  close = false,
): HttpAnswer {
  return { status, headers: headerLines(extra), body: asciiJson(body), close };
}

export function errorAnswer(
  status: number,
  code: string,
  message: string,
  path?: string,
  extra?: Record<string, string>,
  close = false,
): HttpAnswer {
  const body: ErrorBody = { error: path === undefined ? { code, message } : { code, message, path } };
  return jsonAnswer(status, body, extra, close);
}

/** A 200 decision: its JSON and its RateLimit header lines. */
export function decisionAnswer(decision: RenderedDecision): HttpAnswer {
  return { status: 200, headers: JSON_HEADERS + decision.headers, body: decision.json };
}
