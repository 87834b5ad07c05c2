// What roles below admin see of a tenant's webhooks. A URL can be the secret itself
// (Slack-style hooks carry their token in the path), so they see its scheme and host only;
// a delivery error can name the address a host resolved to inside Sluice's network, so they
// see what kind of failure it was. Admins and owners see everything. Pure.

/** The URL's scheme and host (with its port), the rest elided: "https://hooks.slack.com/…". */
export function maskedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return "…";
  }
}

// Errors whose text holds no address are shown as written (send-webhook.ts words them);
// the guard's refusals become their category, and anything else (the network stack's own
// messages, which name addresses and ports) is a failed connection.
const SHOWN_AS_WRITTEN = [
  /^no answer within \d+ ms$/,
  /^answered \d{3}$/,
  /^redirect \(\d{3}\) not followed$/,
  /^answer larger than \d+ bytes$/,
  /^the endpoint is disabled$/,
];
const CATEGORIES: [RegExp, string][] = [
  [/ resolves to .*, a private, loopback or link-local address/, "refused: private address"],
  [/^cannot resolve /, "refused: host not found"],
  [/^url /, "refused: invalid url"],
];

/** The kind of a delivery error, without any address in it. */
export function errorCategory(error: string): string {
  if (SHOWN_AS_WRITTEN.some((pattern) => pattern.test(error))) return error;
  for (const [pattern, category] of CATEGORIES) if (pattern.test(error)) return category;
  return "failed: connection error";
}
