// GET /api/openapi.json: the OpenAPI 3.1 document (lib/openapi), generated once per process
// from the schemas the server validates with. Unauthenticated on purpose: it describes the
// API and holds no secrets.
import { openApiDocument } from "@/lib/control/openapi/generate";

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
