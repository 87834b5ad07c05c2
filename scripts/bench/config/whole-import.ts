// Step 1: the whole configuration in one PUT /api/admin/config. When the server refuses the
// one document (today a body over 2 MiB is 413), that refusal is the result, and the
// tenants are then imported in parts so that the other steps can still run (timed apart).
import { Admin, importedVersion } from "./admin-client";
import { CheckClient, limitValue } from "./check-client";
import { BASE_VALUE, CHANGED_LIMIT, slugOf, wholeDoc } from "./document";
import { waitFor } from "./stats";

export interface ImportResult {
  /** the one PUT: its time, or why it did not apply */
  whole: { ms: number } | { refused: string } | { cutMs: number };
  documentBytes: number;
  /** the import in parts after a refusal: parts and total time (null: not needed) */
  /** cut: `done` tenants were in when the cap ran out */
  parts: { count: number; ms: number; smallest: number } | { cutMs: number; done: number } | null;
  /** from the last answer until both servers enforce the last tenant (null: cut) */
  enforcedMs: number | null;
  /** false: the configuration is not all in; the later steps cannot run */
  complete: boolean;
}

const FIRST_PART = Number(process.env.BENCH_CONFIG_PART ?? 250);
const SMALLEST_PART = 10;

/**
 * The tenants in PUTs of FIRST_PART; a part the server fails (today: a 500 when its
 * transaction outlives 30 s on a loaded machine) is tried again halved, down to
 * SMALLEST_PART, so that seeding adapts to the pipeline instead of giving up.
 */
async function importInParts(
  admin: Admin,
  tenants: number,
  capMs: number,
): Promise<{ count: number; ms: number; smallest: number } | { cutMs: number; done: number }> {
  const started = performance.now();
  let count = 0;
  let part = FIRST_PART;
  let smallest = part;
  for (let from = 0; from < tenants;) {
    const left = Math.max(1, Math.floor(capMs - (performance.now() - started)));
    const to = Math.min(tenants, from + part);
    const answer = await admin.call("PUT", "/api/admin/config", wholeDoc(from, to, from === 0), left);
    if (answer.status === null) return { cutMs: capMs, done: from };
    if (answer.status >= 500 && part > SMALLEST_PART) {
      part = Math.max(SMALLEST_PART, Math.floor(part / 2));
      smallest = Math.min(smallest, part);
      continue;
    }
    importedVersion(answer, `import of tenants ${from}..${to - 1}`);
    count++;
    from = to;
  }
  return { count, ms: performance.now() - started, smallest };
}

/** Both servers answer the last tenant's check with its limit: the import is enforced. */
export async function enforcedOnBoth(
  clients: CheckClient[],
  slug: string,
  value: number,
  capMs: number,
): Promise<number | null> {
  return waitFor(async () => {
    for (const client of clients) {
      const { decision } = await client.check({ tenant: slug, dryRun: true });
      if (limitValue(decision, CHANGED_LIMIT) !== value) return false;
    }
    return true;
  }, capMs);
}

export async function wholeImport(
  admin: Admin,
  clients: CheckClient[],
  tenants: number,
  capMs: number,
): Promise<ImportResult> {
  const text = JSON.stringify(wholeDoc(0, tenants, true));
  const answer = await admin.call("PUT", "/api/admin/config", text, capMs);
  const documentBytes = Buffer.byteLength(text);
  if (answer.status === null)
    return { whole: { cutMs: capMs }, documentBytes, parts: null, enforcedMs: null, complete: false };
  let whole: ImportResult["whole"] = { ms: answer.ms };
  let parts: ImportResult["parts"] = null;
  if (answer.status !== 200) {
    type Refusal = { code?: string; message?: string };
    type Body = { error?: Refusal; errors?: Array<{ path?: string; message?: string }> } | null;
    const error = (answer.body as Body)?.error;
    const first = (answer.body as Body)?.errors?.[0];
    const detail = first ? ` ${first.path ?? ""}: ${first.message ?? ""}` : "";
    // a 500 is what a change that outlives its transaction's 30 s answers today
    const why =
      error?.code === "internal_error" ? "" : `: ${((error?.message ?? answer.text) + detail).slice(0, 240)}`;
    whole = {
      refused: `${answer.status} ${error?.code ?? ""} after ${(answer.ms / 1_000).toFixed(1)} s${why}`,
    };
    parts = await importInParts(admin, tenants, capMs);
    if ("cutMs" in parts) return { whole, documentBytes, parts, enforcedMs: null, complete: false };
  }
  const enforcedMs = await enforcedOnBoth(clients, slugOf(tenants - 1), BASE_VALUE, 60_000);
  return { whole, documentBytes, parts, enforcedMs, complete: enforcedMs !== null };
}
