// What the soak reads once a minute besides its own load figures: the check process's
// resident memory and heap (its /api/metrics), the app process's resident memory (/proc),
// Redis used_memory, and PostgreSQL's connections to the soak database.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import pg from "pg";
import { sideRead } from "../../tests/integration/check/side-read";

export interface Sample {
  frontRssMb: number;
  frontHeapMb: number;
  appRssMb: number;
  redisUsedMb: number;
  pgConnections: number;
}

const MB = 1024 * 1024;

function metric(text: string, name: string): number {
  const match = new RegExp(`^${name} ([\\d.e+]+)$`, "m").exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

/** Resident memory (MB) of the processes whose parent is `pid` (the Next app process). */
function childrenRssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  let kb = 0;
  for (const child of children) {
    const status = readFileSync(`/proc/${child}/status`, "utf8");
    kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

async function orNaN<T>(work: () => Promise<T>, pick: (value: T) => number): Promise<number> {
  try {
    return pick(await work());
  } catch {
    return Number.NaN;
  }
}

export async function sample(
  appUrl: string,
  appPid: number | undefined,
  redisUrl: string,
  databaseUrl: string,
): Promise<Sample> {
  // on a connection of its own, so no check connection is handed to the app (side-read.ts)
  const metrics = await sideRead(`${appUrl}/api/metrics`)
    .then((r) => r.text)
    .catch(() => "");
  const redisUsedMb = await orNaN(
    async () => {
      const client = new Redis(redisUrl, {
        maxRetriesPerRequest: 0,
        lazyConnect: true,
        retryStrategy: () => null,
      });
      client.on("error", () => undefined);
      try {
        await client.connect();
        return await client.info("memory");
      } finally {
        client.disconnect();
      }
    },
    (info) => Number(/^used_memory:(\d+)/m.exec(info)?.[1]) / MB,
  );
  const database = new URL(databaseUrl).pathname.slice(1);
  const pgConnections = await orNaN(
    async () => {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(
          "select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [database],
        );
        return Number(rows[0]?.n);
      } finally {
        await client.end();
      }
    },
    (n) => n,
  );
  return {
    frontRssMb: metric(metrics, "sluice_process_resident_memory_bytes") / MB,
    frontHeapMb: metric(metrics, "sluice_process_heap_used_bytes") / MB,
    appRssMb: childrenRssMb(appPid),
    redisUsedMb,
    pgConnections,
  };
}
