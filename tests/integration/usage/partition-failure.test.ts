import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import { PartitionStatusLine } from "@/components/shell/usage-storage-status";
import { registry } from "@/lib/check/check-metrics";
import { closeDb, db } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { jobKeys } from "@/lib/usage/keys";
import { readPartitionHealth, refreshPartitionHealth } from "@/lib/usage/partition-health";
import { PartitionKeeper } from "@/lib/usage/store/rollup-partitions";
import { connect, NS } from "./setup";

// A usage partition that cannot be created, for real: a table already holds part of its
// range, so PostgreSQL refuses the new partition as overlapping. The failure shows in
// /api/metrics' gauges and in the dashboard's status line until a later run creates it.
// The months are far ahead of any other test's rows.

const client = connect();
const ns = `${NS}partfail:`;
const MARCH = Date.UTC(2099, 2, 1);
const BLOCKER = `"UsageDay_blocker_${process.pid}"`;

const metric = (name: string): number | undefined => {
  const line = registry
    .render()
    .split("\n")
    .find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
};
const statusLine = async (): Promise<string> =>
  renderToStaticMarkup(
    createElement(PartitionStatusLine, { health: await readPartitionHealth(client, ns) }),
  ).replace(/<!-- -->/g, "");

afterAll(async () => {
  await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${BLOCKER}`);
  for (const name of ["UsageDay_p209903", "UsageDay_p209904", "UsageDay_p209905"])
    await db().$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
  await client.del(jobKeys(ns).partitions);
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("a usage partition that cannot be created", () => {
  it("is counted on /api/metrics and named in the status line until it exists", async () => {
    await db().$executeRawUnsafe(
      `CREATE TABLE ${BLOCKER} PARTITION OF "UsageDay" FOR VALUES FROM ('2099-03-10') TO ('2099-03-20')`,
    );
    const keeper = new PartitionKeeper(client, ns);
    // March is blocked; April and May (the months ahead) are created
    expect(await keeper.prepare("UsageDay", MARCH, MARCH)).toBe(1);
    const health = await refreshPartitionHealth(client, ns);
    expect(health.missing).toEqual([`UsageDay@${MARCH}`]);
    expect(health.lastError).toMatch(/UsageDay@[\s\S]*overlap/);
    expect(metric("sluice_usage_partition_failures")).toBe(1);
    expect(metric("sluice_usage_partitions_missing")).toBe(1);
    const line = await statusLine();
    expect(line).toContain("Usage storage: 1 partition could not be created");
    expect(line).toContain("UsageDay from 2099-03-01 00:00 UTC");
    expect(line).toContain("overlap");

    // the blocker gone, the next run creates it: no longer missing, the count stays
    await db().$executeRawUnsafe(`DROP TABLE ${BLOCKER}`);
    expect(await keeper.prepare("UsageDay", MARCH, MARCH)).toBe(0);
    const after = await refreshPartitionHealth(client, ns);
    expect(after.missing).toEqual([]);
    expect(metric("sluice_usage_partition_failures")).toBe(1);
    expect(metric("sluice_usage_partitions_missing")).toBe(0);
    expect(await statusLine()).toBe("");
    const [made] = await db().$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('UsageDay_p209903', 'UsageDay_p209904')`,
    );
    expect(made?.n).toBe(2);
  });
});
