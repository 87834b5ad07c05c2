// The CLI's own small HTTP layer for the admin API and /api/check: fetch with the bearer
// token and a deadline, and the api.md error shape turned into one readable sentence.
import { CliError, EXIT_FAILURE } from "./errors";
import type { Connection } from "./options";

export interface ApiErrorBody {
  error: { code: string; message: string; path?: string };
  errors?: { path: string; message: string }[];
}

export interface HttpReply {
  status: number;
  text: string;
  /** the JSON body when the answer is JSON, else undefined */
  json: unknown;
}

export interface RequestOptions {
  body?: string;
  contentType?: string;
  accept?: string;
}

export async function request(
  connection: Connection,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${connection.token}` };
  if (options.accept) headers.accept = options.accept;
  if (options.body !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  let response: Response;
  try {
    response = await fetch(`${connection.url}${path}`, {
      method,
      headers,
      body: options.body,
      signal: AbortSignal.timeout(connection.timeoutMs),
    });
  } catch (error) {
    throw new CliError(`Could not reach Sluice at ${connection.url}: ${reason(error)}.`);
  }
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get("content-type") ?? "").includes("json")) {
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, text, json };
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer within the timeout";
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    if (cause && typeof cause.code === "string") return cause.code;
    if (cause && typeof cause.message === "string") return cause.message;
    return error.message;
  }
  return String(error);
}

export function isApiError(body: unknown): body is ApiErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { message?: unknown }).message === "string"
  );
}

/** "path: message", once: the server's sentence often names its field already. */
function named(path: string | undefined, message: string): string {
  return !path || message.startsWith(`${path}:`) ? message : `${path}: ${message}`;
}

/** A failed answer as one sentence (the server's message, its path, the status); when the
 * server named several fields, each is listed above it so one run shows every mistake. */
export function failure(what: string, reply: HttpReply): CliError {
  if (isApiError(reply.json)) {
    const { code, message, path } = reply.json.error;
    const fields = Array.isArray(reply.json.errors) ? reply.json.errors : [];
    const details = fields.length > 1 ? fields.map((e) => `  ${named(e.path, e.message)}`) : [];
    return new CliError(
      `${what} failed (${reply.status} ${code}): ${named(path, message)}`,
      EXIT_FAILURE,
      details,
    );
  }
  const excerpt = reply.text.slice(0, 200).trim();
  return new CliError(`${what} failed (HTTP ${reply.status})${excerpt ? `: ${excerpt}` : "."}`);
}

/** The JSON body of a successful answer, or the failure as a CliError. */
export function expectJson(what: string, reply: HttpReply, status = 200): unknown {
  if (reply.status !== status || reply.json === undefined) throw failure(what, reply);
  return reply.json;
}
