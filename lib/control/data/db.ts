import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/shared/env";
import { SerialPgClient } from "@/lib/control/data/serial-pg-client";
import { globalSingleton } from "@/lib/shared/global-singleton";

// One client per process, shared by every copy of this module (global-singleton.ts).
const prisma = globalSingleton<PrismaClient>(
  "sluicePrisma",
  () =>
    new PrismaClient({
      // each client runs its queries in turn (serial-pg-client.ts)
      adapter: new PrismaPg({ connectionString: env().DATABASE_URL, max: 10, Client: SerialPgClient }),
    }),
);

export function db(): PrismaClient {
  return prisma.get();
}

export async function closeDb(): Promise<void> {
  await prisma.peek()?.$disconnect();
  prisma.set(undefined);
}
