import "server-only";
import type { z } from "zod";
import { documentErrorMap } from "@/lib/control/config/document/zod-issues";
import { ApiError } from "@/lib/control/api/api-error";
import { bodyFormat, type BodyFormat } from "@/lib/control/api/content-type";

// Request bodies: size-capped while streaming (a lying or absent Content-Length cannot make
// us buffer more than the cap), typed by Content-Type, parsed with zod before any handler.

/** Small JSON bodies (keys, tokens, reset). */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Bulk calls: up to 1,000 items of a few dozen bytes each. */
export const BULK_BODY_LIMIT = 256 * 1024;
/** Configuration documents: large installations, but nothing a person writes by hand exceeds this. */
export const DOCUMENT_BODY_LIMIT = 2 * 1024 * 1024;
/** An operator's document: the whole installation (10,000 tenants is about 13 MB of JSON). */
export const OPERATOR_DOCUMENT_BODY_LIMIT = 32 * 1024 * 1024;

function tooLarge(limit: number): ApiError {
  return new ApiError("payload_too_large", `The body is larger than ${Math.round(limit / 1024)} KiB.`);
}

export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Which format a body is in; 415 for anything but the accepted ones. */
export function requireFormat(
  request: Request,
  accepted: readonly BodyFormat[],
  missing: BodyFormat | null,
): BodyFormat {
  const header = request.headers.get("content-type");
  const format = header === null ? missing : bodyFormat(header);
  if (format === null || !accepted.includes(format)) {
    const names = accepted.map((f) => (f === "json" ? "application/json" : "application/yaml")).join(" or ");
    throw new ApiError("unsupported_media_type", `Send the body as ${names} (Content-Type).`);
  }
  return format;
}

/** A small JSON body, checked against the schema: 400 naming the first bad field. */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit: number = JSON_BODY_LIMIT,
): Promise<z.output<S>> {
  requireFormat(request, ["json"], "json");
  const text = await readBodyText(request, limit);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON.");
  }
  // zod errors propagate: the wrapper maps them to 400 with every field and its path.
  return schema.parse(value, { error: documentErrorMap });
}

/** Query parameters (empty ones count as absent), checked against the schema. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [name, value] of params) if (value !== "") raw[name] = value;
  return schema.parse(raw, { error: documentErrorMap });
}
