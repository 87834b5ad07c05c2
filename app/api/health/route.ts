// GET /api/health: unauthenticated reachability of PostgreSQL and Redis and the config version.
import { checkHealth } from "@/lib/control/data/health/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const report = await checkHealth();
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
