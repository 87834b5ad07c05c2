import "server-only";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "@/lib/control/alerts/guard/address-policy";

// The SSRF guard for webhook targets (user input). A URL must be http or https without
// credentials; its host is resolved and every address checked, and the request then goes
// to the checked address (send-webhook.ts pins it), so a DNS answer that changes between
// check and connect (rebinding) gains nothing. Redirects are never followed.

export class BlockedTargetError extends Error {
  override name = "BlockedTargetError";
}

/** Syntax only (for input checks): scheme, no user:password, a host. Null when fine. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username || url.password) return "must not contain a user name or password";
  if (!url.hostname) return "must name a host";
  return null;
}

/** A literal IP host that is private: known without DNS, so refused when the endpoint is made. */
export function literalPrivateHost(raw: string): boolean {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  return (isIP(host) !== 0 && isPrivateAddress(host)) || host === "localhost" || host.endsWith(".localhost");
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host; throws BlockedTargetError unless every address may be reached. */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const problem = urlProblem(raw);
  if (problem) throw new BlockedTargetError(`url ${problem}`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses =
    isIP(host) !== 0
      ? [{ address: host, family: isIP(host) }]
      : await lookup(host, { all: true, verbatim: true }).catch(() => {
          throw new BlockedTargetError(`cannot resolve ${host}`);
        });
  const [first] = addresses;
  if (!first) throw new BlockedTargetError(`cannot resolve ${host}`);
  const denied = addresses.find((a) => isPrivateAddress(a.address));
  if (denied && !allowPrivate)
    throw new BlockedTargetError(
      `${host} resolves to ${denied.address}, a private, loopback or link-local address (an operator can allow it)`,
    );
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
