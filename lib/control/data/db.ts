import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/shared/env";
import { SerialPgClient } from "@/lib/control/data/serial-pg-client";

// One client per process; Next's dev server reloads modules, so keep it on globalThis.
const holder = globalThis as unknown as { sluicePrisma?: PrismaClient };

export function db(): PrismaClient {
  holder.sluicePrisma ??= new PrismaClient({
    // each client runs its queries in turn (serial-pg-client.ts)
    adapter: new PrismaPg({ connectionString: env().DATABASE_URL, max: 10, Client: SerialPgClient }),
  });
  return holder.sluicePrisma;
}

export async function closeDb(): Promise<void> {
  await holder.sluicePrisma?.$disconnect();
  holder.sluicePrisma = undefined;
}
