import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

// One client per process; Next's dev server reloads modules, so keep it on globalThis.
const holder = globalThis as unknown as { sluicePrisma?: PrismaClient };

export function db(): PrismaClient {
  holder.sluicePrisma ??= new PrismaClient({
    adapter: new PrismaPg({ connectionString: env().DATABASE_URL, max: 10 }),
  });
  return holder.sluicePrisma;
}

export async function closeDb(): Promise<void> {
  await holder.sluicePrisma?.$disconnect();
  holder.sluicePrisma = undefined;
}
