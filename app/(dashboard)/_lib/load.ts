import "server-only";
import { notFound } from "next/navigation";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { formatDate } from "@/lib/shared/format-date";

// Pages ask the DAL, which scopes by tenant; "not yours" and "not there" both become the
// same 404 page, and so does a page the role may not open at all.
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ForbiddenError) notFound();
    throw error;
  }
}

export { formatDate };
