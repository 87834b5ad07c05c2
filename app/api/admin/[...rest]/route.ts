// Any other /api/admin path: the docs/api.md error body instead of Next's HTML 404 page.
const notFound = (): Response =>
  Response.json(
    {
      error: {
        code: "not_found",
        message: "No such admin API call; see the Admin API table of docs/api.md.",
      },
    },
    { status: 404, headers: { "cache-control": "no-store" } },
  );

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
