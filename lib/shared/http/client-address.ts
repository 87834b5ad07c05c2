import "server-only";
import type { IncomingMessage } from "node:http";
import { env } from "@/lib/shared/env";
import {
  isTrusted,
  normalizeAddress,
  parseTrustedProxies,
  type TrustedProxies,
} from "@/lib/shared/http/trusted-proxies";

// Who is on the other end of a request. server.ts computes it once per request from the
// socket (and X-Forwarded-For only through trusted proxies) and hands it to Next.js in a
// header of its own, overwriting whatever a client sent under that name.

export const CLIENT_ADDRESS_HEADER = "x-sluice-client-address";

let cached: TrustedProxies | undefined;
export function trustedProxies(): TrustedProxies {
  if (cached) return cached;
  const parsed = parseTrustedProxies(env().SLUICE_TRUSTED_PROXIES);
  // env() already refused a bad value; this is only the type's other branch.
  if (typeof parsed === "string") throw new Error(`SLUICE_TRUSTED_PROXIES ${parsed}`);
  cached = parsed;
  return cached;
}

function forwardedEntries(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The client's address. The hops are [X-Forwarded-For entries..., socket peer]: with no
 * trusted proxies the peer; with N trusted hops the (N+1)-th from the right; with CIDRs the
 * right-most hop outside them. Entries further left are the client's to invent.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  proxies: TrustedProxies,
): string {
  const peer = normalizeAddress(socketAddress) ?? "unknown";
  if (proxies.kind === "none") return peer;
  const hops = [...forwardedEntries(forwardedFor), peer];
  let index = hops.length - 1;
  if (proxies.kind === "hops") index = Math.max(0, hops.length - 1 - proxies.hops);
  else while (index > 0 && isTrusted(hops[index] ?? "", proxies)) index -= 1;
  const hop = hops[index] ?? peer;
  return (normalizeAddress(hop) ?? hop).slice(0, 64);
}

/** Whether X-Forwarded-Host/-Proto from this peer may be believed: only from a trusted proxy. */
export function peerMayForward(socketAddress: string | undefined, proxies: TrustedProxies): boolean {
  if (proxies.kind === "hops") return proxies.hops > 0;
  return proxies.kind === "cidrs" && isTrusted(socketAddress ?? "", proxies);
}

/** server.ts, before Next.js sees a request: the client address set, untrusted forwarding dropped. */
export function stampClientAddress(request: IncomingMessage): void {
  const proxies = trustedProxies();
  const address = request.socket.remoteAddress;
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddress(
    address,
    request.headers["x-forwarded-for"],
    proxies,
  );
  if (!peerMayForward(address, proxies)) {
    delete request.headers["x-forwarded-host"];
    delete request.headers["x-forwarded-proto"];
  }
}

/** For handlers behind server.ts: the stamped address ("unknown" when not served by it). */
export function clientAddressOf(
  headers: Headers | Record<string, string | string[] | undefined> | undefined,
): string {
  const value =
    headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers?.[CLIENT_ADDRESS_HEADER];
  const text = Array.isArray(value) ? value[0] : value;
  return (text ?? "unknown").slice(0, 64);
}
