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
      // Prisma's defaults (2 s to get a connection, 5 s to finish) fail an editor's save when
      // the machine is busy rather than when the database is: a write waits its turn instead.
      transactionOptions: { maxWait: 10_000, timeout: 30_000 },
    }),
);

export function db(): PrismaClient {
  return prisma.get();
}

export async function closeDb(): Promise<void> {
  await prisma.peek()?.$disconnect();
  prisma.set(undefined);
}
