// One size of npm run bench:config, on a fresh database, Redis and pair of servers: every
// step in turn. A step that fails is noted and the steps that need it are skipped, so the
// bench always reaches its table.
import { rss } from "../rss";
import { Admin, createdKey } from "./admin-client";
import { Changer, changeEverySecond, measureChanges, type ChangeRun } from "./changes";
import { CheckClient } from "./check-client";
import { checkBodies, measureChecks, type CheckRun } from "./check-latency";
import { slugOf } from "./document";
import { seedKeys, type SeededKeys } from "./seed-keys";
import { startServers } from "./servers";
import { versionBytes, versionOfKey, type VersionBytes } from "./version-bytes";
import { wholeImport, type ImportResult } from "./whole-import";
import { limitHeldAcrossServers, type HeldLimit } from "./held-limit";

export interface SizeResult {
  tenants: number;
  imported: ImportResult | null;
  keys: Omit<SeededKeys, "secrets"> | null;
  rss: { a: number; b: number } | null;
  changes: ChangeRun | null;
  keyBytes: VersionBytes | null;
  changeBytes: VersionBytes | null;
  quiet: CheckRun | null;
  during: (CheckRun & { made: number; answered: number }) | null;
  held: HeldLimit | null;
  notes: string[];
}

export interface SizeOptions {
  baseUrl: string;
  capMs: number;
  changes: number;
  checkSeconds: number;
  log: (text: string) => void;
}

export function failedSize(tenants: number, error: unknown): SizeResult {
  const why = error instanceof Error ? error.message : String(error);
  return { ...emptyResult(tenants), notes: [`the size could not run: ${why.slice(0, 500)}`] };
}

export function emptyResult(tenants: number): SizeResult {
  return {
    tenants,
    imported: null,
    keys: null,
    rss: null,
    changes: null,
    keyBytes: null,
    changeBytes: null,
    quiet: null,
    during: null,
    held: null,
    notes: [],
  };
}

export async function runSize(tenants: number, options: SizeOptions): Promise<SizeResult> {
  const { log, capMs } = options;
  const result = emptyResult(tenants);
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T | null> => {
    log(`${tenants} tenants: ${name}`);
    try {
      return await work();
    } catch (error) {
      result.notes.push(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      log(`${name} failed: ${String(error)}`);
      return null;
    }
  };
  const servers = await startServers(options.baseUrl);
  const admin = new Admin(servers.a.url, servers.token);
  const [a, b] = [
    new CheckClient(servers.a.url, servers.token),
    new CheckClient(servers.b.url, servers.token),
  ];
  try {
    result.imported = await step("whole import", () => wholeImport(admin, [a, b], tenants, capMs));
    if (!result.imported?.complete) return result;
    const sample = [...new Set([0, 1, 2, 3].map((q) => slugOf(Math.floor((q * (tenants - 1)) / 3))))];
    const seeded = await step("keys", () => seedKeys(servers.databaseUrl, admin, [a, b], sample));
    if (!seeded) return result;
    result.keys = { sqlMs: seeded.sqlMs, changeMs: seeded.changeMs, enforcedMs: seeded.enforcedMs };
    result.rss = { a: rss(servers.a.pid).own, b: rss(servers.b.pid).own };
    const changer = new Changer(admin, tenants);
    result.changes = await step(`${options.changes} changes`, () =>
      measureChanges(changer, b, options.changes, capMs),
    );
    const lastVersion = result.changes?.lastVersion;
    if (lastVersion)
      result.changeBytes = await step("bytes of a change", () =>
        versionBytes(servers.databaseUrl, lastVersion),
      );
    result.keyBytes = await step("bytes of a key", async () => {
      const key = createdKey(
        await admin.call("POST", `/api/admin/tenants/${slugOf(0)}/keys`, { name: "probe" }, 60_000),
      );
      return versionBytes(servers.databaseUrl, await versionOfKey(servers.databaseUrl, key.id));
    });
    const bodies = checkBodies(seeded.secrets, sample);
    result.quiet = await step("quiet checks", () => measureChecks(a, b, bodies, options.checkSeconds));
    result.held = await step("limit held across servers", () => limitHeldAcrossServers(admin, [a, b], capMs));
    result.during = await step("checks during changes", async () => {
      let end = (): void => undefined;
      const stop = new Promise<void>((resolve) => (end = resolve));
      const making = changeEverySecond(changer, stop);
      const checks = await measureChecks(a, b, bodies, options.checkSeconds).finally(end);
      return { ...checks, ...(await making) };
    });
    return result;
  } finally {
    a.close();
    b.close();
    await servers.stop();
  }
}
