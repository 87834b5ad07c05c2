import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { env } from "@/lib/shared/env";
import type { LimitArgs } from "@/lib/check/limiter/types";
import { ALGORITHM_CODES } from "@/lib/check/limiter/rule-layout";

// A check id (docs/api.md, "Adjusting a check"): what an adjustment needs of the check it
// adjusts, carried by the id itself so the check path stores nothing for it: the tenant,
// the check's time and cost, and per limit it consumed, its state key and the script
// arguments it was counted with. Signed with an HMAC: an id is only ever one this
// installation issued, so its keys and tenant can be trusted as they read.

/** A limit the check consumed: its key's index in `keys`, then its algorithm code, L, W, B and entry. */
export type TicketLimit = readonly [
  key: number,
  code: number,
  L: number,
  W: number,
  B: number,
  entry: string,
];

export interface CheckTicket {
  tenantId: string;
  /** the check's time, ms of Redis TIME */
  at: number;
  cost: number;
  keys: readonly string[];
  limits: readonly TicketLimit[];
}

const FORMAT = 1;
const MAC_BYTES = 16;

const int = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const ticketSchema = z.tuple([
  z.literal(FORMAT),
  z.string().min(1).max(200),
  int,
  int.min(1),
  z.array(z.string().min(1).max(2000)).max(64),
  z.array(z.tuple([int, int, int.min(1), int.min(1), int.min(1), z.string().length(8)])).max(64),
]);

let key: Buffer | null = null;

/** The signing key: derived from NEXTAUTH_SECRET (shared by every server), else one per process. */
function signingKey(): Buffer {
  if (key === null) {
    const secret = env().NEXTAUTH_SECRET;
    key = secret ? createHmac("sha256", secret).update("sluice check id v1").digest() : randomBytes(32);
  }
  return key;
}

function mac(payload: string): Buffer {
  return createHmac("sha256", signingKey()).update(payload).digest().subarray(0, MAC_BYTES);
}

/** The ticket of a check whose limits `consumed[i]` took units; null when none did. */
export function ticketOf(
  tenantId: string,
  at: number,
  cost: number,
  keys: readonly string[],
  rules: readonly LimitArgs[],
  consumed: (i: number) => boolean,
): CheckTicket | null {
  const usedKeys: string[] = [];
  const limits: TicketLimit[] = [];
  for (let i = 0; i < rules.length; i++) {
    if (!consumed(i)) continue;
    const [code, L, W, B, , , entry] = rules[i] as LimitArgs;
    // a concurrency limit holds a lease, not units: it is released, never adjusted
    if (code === ALGORITHM_CODES.concurrency) continue;
    const stateKey = keys[i] as string;
    let k = usedKeys.indexOf(stateKey);
    if (k < 0) k = usedKeys.push(stateKey) - 1;
    limits.push([k, code, L, W, B, entry]);
  }
  if (limits.length === 0) return null;
  return { tenantId, at, cost, keys: usedKeys, limits };
}

/** The id: base64url of the ticket's JSON, ".", its MAC. */
export function encodeTicket(ticket: CheckTicket): string {
  const json = JSON.stringify([FORMAT, ticket.tenantId, ticket.at, ticket.cost, ticket.keys, ticket.limits]);
  const payload = Buffer.from(json).toString("base64url");
  return `${payload}.${mac(payload).toString("base64url")}`;
}

/** The ticket of an id this installation issued, else null (malformed, altered or foreign). */
export function decodeTicket(id: string): CheckTicket | null {
  const dot = id.indexOf(".");
  if (dot < 1 || dot !== id.lastIndexOf(".")) return null;
  const payload = id.slice(0, dot);
  const given = Buffer.from(id.slice(dot + 1), "base64url");
  const expected = mac(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString());
  } catch {
    return null;
  }
  const result = ticketSchema.safeParse(parsed);
  if (!result.success) return null;
  const [, tenantId, at, cost, keys, limits] = result.data;
  if (limits.some(([k]) => k >= keys.length)) return null;
  return { tenantId, at, cost, keys, limits };
}

/** The MAC part of an id: names its applied-ids record. */
export function ticketMac(id: string): string {
  return id.slice(id.indexOf(".") + 1);
}
