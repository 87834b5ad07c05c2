import type { RenderedDecision } from "@/lib/check/render/rendered";

// The headers a gateway adds to its client's response for a decision: the very RateLimit
// header lines /api/check answers with (lib/check/render), so that a per-tenant header
// flavour rendered there reaches Envoy's clients too. The one place the gRPC server turns
// a decision into headers.

export interface HeaderValue {
  key: string;
  value: string;
}

/** The decision's header lines ("name: value\r\n" each) as Envoy's HeaderValue list. */
export function gatewayHeaders(decision: RenderedDecision): HeaderValue[] {
  const headers: HeaderValue[] = [];
  const lines = decision.headers;
  let at = 0;
  while (at < lines.length) {
    let end = lines.indexOf("\r\n", at);
    if (end < 0) end = lines.length;
    const colon = lines.indexOf(": ", at);
    if (colon > at && colon < end)
      headers.push({ key: lines.slice(at, colon), value: lines.slice(colon + 2, end) });
    at = end + 2;
  }
  return headers;
}
