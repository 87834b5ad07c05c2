// GET /api/admin/state?tenant=&key=&route=&subject=: the current counters of every limit a
// check with these would meet, read without consuming anything.
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { CounterQuery, counterState } from "@/lib/control/data/counters";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, CounterQuery);
  return Response.json(await counterState(principal, query));
});
