// The Prisma CLI's config. The app itself connects through lib/db.ts (driver adapter);
// migrations run through scripts/db/migrate.mjs because the native engine is not available offline.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:54329/sluice" },
});
