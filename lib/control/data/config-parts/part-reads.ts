import "server-only";
import { z } from "zod";
import { db } from "@/lib/control/data/db";
import type { PartText } from "@/lib/control/config/publish";

// Reads of the configuration in parts: what one version changed (the healer republishes
// it), and every live part as of a version (a whole publish, the admin API's copy, history).

export type VersionedPart = PartText & { version: number };

const partRow = z.object({
  scope: z.string(),
  version: z.number().int(),
  compiled: z.string().nullable(),
});

/** The parts one version changed (json null: removed). */
export async function partsOfVersion(version: number): Promise<VersionedPart[]> {
  const rows = await db().configPart.findMany({
    where: { version },
    select: { scope: true, version: true, compiled: true },
  });
  return rows.map((row) => ({ scope: row.scope, version: row.version, json: row.compiled }));
}

/** Every live part as of `version` (the newest when omitted): what servers would hold then. */
export async function livePartsAt(version?: number): Promise<VersionedPart[]> {
  const rows =
    version === undefined
      ? await db().$queryRaw`
          select p.scope, p.version, p.compiled from "ConfigPartHead" h
          join "ConfigPart" p on p.scope = h.scope and p.version = h.version
          where h.live`
      : await db().$queryRaw`
          select * from (
            select distinct on (scope) scope, version, compiled from "ConfigPart"
            where version <= ${version}::int order by scope, version desc
          ) newest where compiled is not null`;
  return z
    .array(partRow)
    .parse(rows)
    .map((row) => ({ scope: row.scope, version: row.version, json: row.compiled }));
}

/** The document of every live part as of `version` (global and tenants; keys have none). */
export async function documentPartsAt(version: number): Promise<Array<{ scope: string; document: string }>> {
  const rows = await db().$queryRaw`
    select scope, document from (
      select distinct on (scope) scope, version, compiled, document from "ConfigPart"
      where version <= ${version}::int and scope not like 'k:%' order by scope, version desc
    ) newest where compiled is not null and document is not null`;
  return z.array(z.object({ scope: z.string(), document: z.string() })).parse(rows);
}

/** The newest version number recorded (0 before any): cheap, for the healer's every tick. */
export async function newestVersion(): Promise<number> {
  const newest = await db().configVersion.aggregate({ _max: { version: true } });
  return newest._max.version ?? 0;
}

/** Whether a version is stored in parts, or whole (its row's snapshot); null when unknown. */
export async function versionKind(version: number): Promise<"parts" | "whole" | null> {
  const row = await db().configVersion.findUnique({ where: { version }, select: { partial: true } });
  return row === null ? null : row.partial ? "parts" : "whole";
}
