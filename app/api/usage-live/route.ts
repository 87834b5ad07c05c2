// GET /api/usage-live?tenant=&key=&route=&range=[&from=&to=][&compare=1]: the usage page's data, polled
// every 2 s while the page is open; from/to a custom range (lib/usage/custom-window.ts).
// Session-authenticated; tenants the user may not see answer 404.
import { z } from "zod";
import { currentUser } from "@/lib/control/auth/session";
import { NotFoundError } from "@/lib/control/errors/errors";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { RANGE_IDS } from "@/lib/usage/ranges";
import { parseCustomWindow } from "@/lib/usage/read/custom-window";
import { withHottestNow } from "@/lib/control/counters/hottest-now";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  tenant: z.string().min(1).max(64).optional(),
  key: z.string().min(1).max(128).optional(),
  route: z.string().min(1).max(512).optional(),
  range: z.enum(RANGE_IDS).default("15m"),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  compare: z.literal("1", { error: 'must be "1" (also read the previous period)' }).optional(),
});

function fail(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "cache-control": "no-store" } });
}

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return fail(401, "unauthorized", "Sign in to see usage.");
  const parsed = Query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success)
    return fail(
      400,
      "invalid_request",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  const { from, to, compare, ...query } = parsed.data;
  const window = parseCustomWindow(from, to);
  if (window.kind === "invalid") return fail(400, "invalid_request", `${window.field}: ${window.message}`);
  try {
    // rates from usage, "now" from the counters (Hottest limits), as the page reads them
    const data = await withHottestNow(
      user,
      await dashboardData(user, {
        ...query,
        window: window.kind === "ok" ? window.window : undefined,
        compare: compare === "1",
      }),
    );
    return Response.json(data, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof NotFoundError) return fail(404, "not_found", error.message);
    console.error("[sluice] usage-live:", error);
    return fail(503, "unavailable", "Usage data could not be read right now; retrying.");
  }
}
