import { afterAll, describe, expect, it } from "vitest";
import { closeDb, db } from "@/lib/control/data/db";
import { packIndex, unpackedIndexes } from "@/lib/control/data/usage/partitions";
import { deleteTenantUsage, storedRows, writeLevel } from "@/lib/control/data/usage/stored-rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { createTenant } from "./setup";

// A complete partition's primary key rebuilt packed (pack-job.ts): listed until packed, then
// smaller or as small, the catalog remembering it, and the rows read back the same. The day
// is far ahead of any other test's rows.

const DAY = Date.UTC(2099, 5, 1);
const PARTITIONS = ["UsageMinute_p20990601", "UsageMinutePair_p20990601h00"];
let tenantId = "";

afterAll(async () => {
  if (tenantId) await deleteTenantUsage([tenantId]);
  for (const name of PARTITIONS) await db().$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
  await closeRedis();
  await closeDb();
});

describe("packing a complete partition's key", () => {
  it("rebuilds it with full pages, once, with the same rows", async () => {
    tenantId = (await createTenant("pack", [])).id;
    const pairs = Array.from({ length: 400 }, (_, i) => ({
      tenantId,
      keyId: `key${i % 100}`,
      route: `GET /r${Math.floor(i / 100)}`,
      allowed: 1 + (i % 5),
      rejected: i % 2,
      shadowRejected: 0,
      degraded: 0,
      leasesAcquired: 0,
      leasesReleased: 0,
      leasesExpired: 0,
    }));
    // a series' newest row lands in the middle of the key, minute after minute
    for (let m = 0; m < 30; m++) await writeLevel("minute", DAY + m * 60_000, pairs);
    const before = await storedRows("minute", [tenantId], "totals");
    const index = "UsageMinute_p20990601_pkey";
    const size = async () => {
      const [row] = await db().$queryRawUnsafe<Array<{ bytes: number }>>(
        `SELECT pg_relation_size('"${index}"')::float8 AS "bytes"`,
      );
      return row?.bytes ?? 0;
    };
    // not complete yet: not listed; complete: listed
    expect(await unpackedIndexes("UsageMinute", DAY + 3_600_000)).not.toContain(index);
    expect(await unpackedIndexes("UsageMinute", DAY + 86_400_000)).toContain(index);
    const unpacked = await size();
    await packIndex(index);
    expect(await size()).toBeLessThanOrEqual(unpacked);
    expect(await unpackedIndexes("UsageMinute", DAY + 86_400_000)).not.toContain(index);
    expect(await storedRows("minute", [tenantId], "totals")).toEqual(before);
    expect(before).toHaveLength(30);
  });
});
