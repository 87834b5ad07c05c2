import "server-only";
import { z } from "zod";
import {
  documentSchema,
  overrideDocSchema,
  planSchema,
  routeSchema,
  tenantSchema,
  type ConfigDocument,
  type OverrideDoc,
} from "@/lib/control/config/document";
import { assemblePublished, parsePart, type ConfigPart } from "@/lib/check/published/parts";
import type { PublishedConfig } from "@/lib/check/published/published";
import { db } from "@/lib/control/data/db";
import {
  documentPartsAt,
  newestVersion,
  partsOfVersion,
  livePartsAt,
} from "@/lib/control/data/config-parts/part-reads";
import { parsePublished } from "@/lib/check/config-index";
import { parseStored } from "@/lib/shared/parse-stored";

// Whole configurations as of a version, for readers that want the whole: the admin API's
// view of what servers enforce, rollback, history. A version is stored whole (before parts
// existed) or in parts (only what it changed); both read the same here.

/** A version stored whole: its snapshot; null when it is in parts or does not exist. */
export async function latestWholeVersion(version: number): Promise<unknown> {
  const row = await db().configVersion.findUnique({ where: { version }, select: { snapshot: true } });
  return row?.snapshot ?? null;
}

interface Cached {
  version: number;
  parts: Map<string, ConfigPart>;
  published: PublishedConfig;
}
let cached: Cached | null = null;
/** Past this many versions behind, the cache reads every live part again instead of each change. */
const MOST_FOLLOWED = 50;

/** The newest version as servers enforce it (overrides not applied); null before any. */
export async function latestPublished(): Promise<PublishedConfig | null> {
  const version = await newestVersion();
  if (version === 0) return null;
  if (cached?.version === version) return cached.published;
  const row = await db().configVersion.findUnique({
    where: { version },
    select: { partial: true, snapshot: true },
  });
  if (!row) return null;
  if (!row.partial) {
    const published = parsePublished(row.snapshot);
    cached = null;
    return published;
  }
  cached = await follow(cached, version);
  return cached.published;
}

async function follow(from: Cached | null, version: number): Promise<Cached> {
  let parts: Map<string, ConfigPart>;
  if (from !== null && version - from.version <= MOST_FOLLOWED) {
    parts = new Map(from.parts);
    for (let v = from.version + 1; v <= version; v++) {
      for (const part of await partsOfVersion(v)) {
        if (part.json === null) parts.delete(part.scope);
        else parts.set(part.scope, parsePart(part.json));
      }
    }
  } else {
    // the newest of each part (it may hold a version committed since: applying that one
    // again later changes nothing), far cheaper than finding the newest at `version`
    const live = await livePartsAt();
    parts = new Map(live.flatMap((p) => (p.json === null ? [] : [[p.scope, parsePart(p.json)]])));
  }
  return { version, parts, published: assemblePublished(version, parts) };
}

// the documents compile-published.ts keeps with each part, and a whole one with older versions
const globalDoc = z.object({ plans: z.array(planSchema), routes: z.array(routeSchema) });
const tenantDoc = z.object({ tenant: tenantSchema.nullable(), overrides: z.array(overrideDocSchema) });

/** The whole configuration document as of `version`; null when the version kept none. */
export async function documentAt(version: number): Promise<ConfigDocument | null> {
  const row = await db().configVersion.findUnique({
    where: { version },
    select: { partial: true, document: true },
  });
  if (!row) return null;
  if (!row.partial)
    return parseStored(documentSchema.nullable(), row.document, `Config version ${version}'s document`);
  const document: ConfigDocument = { plans: [], routes: [], tenants: [] };
  const overrides: OverrideDoc[] = [];
  const rows = (await documentPartsAt(version)).sort((a, b) => (a.scope < b.scope ? -1 : 1));
  for (const { scope, document: text } of rows) {
    if (scope === "g") {
      const part = parseStored(globalDoc, JSON.parse(text), `Config version ${version}'s plans and routes`);
      document.plans = part.plans;
      document.routes = part.routes;
    } else {
      const part = parseStored(tenantDoc, JSON.parse(text), `Config version ${version}'s part ${scope}`);
      if (part.tenant !== null) document.tenants?.push(part.tenant);
      overrides.push(...part.overrides);
    }
  }
  return overrides.length > 0 ? { ...document, overrides } : document;
}
