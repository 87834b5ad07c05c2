import "server-only";

// For the server processes' graceful shutdown: they close the database pool without
// reaching Prisma itself (only lib/control/data does, for tenant isolation).
export { closeDb as closeDatabase } from "@/lib/control/data/db";
