import "server-only";
import { db } from "@/lib/control/data/db";

// Writes the last-used times the checking processes gathered (lib/usage/credential-use.ts)
// to API keys and service tokens, one statement per table. A system job: the ids come from
// the recorder, not from a request. Times only move forward, so a late batch never rewinds
// a newer one; ids of deleted credentials match no row.

export async function recordLastUsed(
  keys: ReadonlyMap<string, number>,
  tokens: ReadonlyMap<string, number>,
): Promise<number> {
  let written = 0;
  if (keys.size > 0) {
    const ids = [...keys.keys()];
    const at = [...keys.values()];
    written += await db().$executeRaw`
      update "ApiKey" as k set "lastUsedAt" = to_timestamp(u.at / 1000.0) at time zone 'UTC'
      from unnest(${ids}::text[], ${at}::float8[]) as u(id, at)
      where k.id = u.id and (k."lastUsedAt" is null or k."lastUsedAt" < to_timestamp(u.at / 1000.0) at time zone 'UTC')`;
  }
  if (tokens.size > 0) {
    const ids = [...tokens.keys()];
    const at = [...tokens.values()];
    written += await db().$executeRaw`
      update "ServiceToken" as t set "lastUsedAt" = to_timestamp(u.at / 1000.0) at time zone 'UTC'
      from unnest(${ids}::text[], ${at}::float8[]) as u(id, at)
      where t.id = u.id and (t."lastUsedAt" is null or t."lastUsedAt" < to_timestamp(u.at / 1000.0) at time zone 'UTC')`;
  }
  return written;
}
