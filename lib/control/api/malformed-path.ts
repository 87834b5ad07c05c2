import type { ErrorBody } from "@/lib/control/api/api-error";

// A path whose percent-encoding does not decode (`/invite/%ff`) is the client's mistake:
// Next.js would throw while decoding its route parameters and answer a plain-text 500.
// proxy.ts answers such a path first: the API's 400 error body under /api/, a small page
// elsewhere. Pure.

/** Whether the path's percent-encoding fails to decode as UTF-8. */
export function isMalformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

const MESSAGE = "The request path has a malformed percent-encoding (a % not followed by valid UTF-8).";

export const malformedPathBody: ErrorBody = { error: { code: "invalid_request", message: MESSAGE } };

/** A page with no script and no reflected input: nothing of the path is echoed. */
export const malformedPathPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bad request · Sluice</title></head>
<body>
<main>
<h1>Bad request</h1>
<p>This address has a malformed percent-encoding, so it names no page. Check the link.</p>
<p><a href="/">Go to the dashboard</a></p>
</main>
</body>
</html>
`;
