// Steps 2 and 3: one tenant's change (a document holding just that tenant, one limit value
// changed) made on server A once a second; the time A takes to answer, and the time from
// that answer until server B's checks of the tenant show the new value.
import { Admin, importedVersion } from "./admin-client";
import { CheckClient, limitValue } from "./check-client";
import { BASE_VALUE, CHANGED_LIMIT, slugOf, tenantDoc } from "./document";
import { sleep, waitFor } from "./stats";

const ANSWER_CAP_MS = 60_000;
const PROPAGATION_CAP_MS = 30_000;

export interface Change {
  slug: string;
  value: number;
  answerMs: number;
  version: number;
}

/** Makes changes of distinct tenants and values: the j-th change of a run edits tenant j * 7919 mod n. */
export class Changer {
  private made = 0;

  constructor(
    private readonly admin: Admin,
    private readonly tenants: number,
  ) {}

  async change(): Promise<Change | null> {
    const j = ++this.made;
    const index = (j * 7_919) % this.tenants;
    const value = BASE_VALUE + j;
    const answer = await this.admin.call(
      "PUT",
      "/api/admin/config",
      { tenants: [tenantDoc(index, value)] },
      ANSWER_CAP_MS,
    );
    if (answer.status === null) return null;
    const version = importedVersion(answer, `change of ${slugOf(index)}`);
    if (version === null) throw new Error(`change of ${slugOf(index)} made no version`);
    return { slug: slugOf(index), value, answerMs: answer.ms, version };
  }
}

export interface ChangeRun {
  answerMs: number[];
  /** null entries: cut at PROPAGATION_CAP_MS */
  propagationMs: Array<number | null>;
  /** changes cut at their cap (not answered) */
  cut: number;
  lastVersion: number | null;
}

/** `count` changes, one a second (back to back when one takes longer), within `capMs` in all. */
export async function measureChanges(
  changer: Changer,
  b: CheckClient,
  count: number,
  capMs: number,
): Promise<ChangeRun> {
  const run: ChangeRun = { answerMs: [], propagationMs: [], cut: 0, lastVersion: null };
  const started = performance.now();
  for (let j = 0; j < count && performance.now() - started < capMs; j++) {
    const change = await changer.change();
    if (change === null) {
      run.cut++;
      continue;
    }
    run.answerMs.push(change.answerMs);
    run.lastVersion = change.version;
    run.propagationMs.push(
      await waitFor(
        async () =>
          limitValue((await b.check({ tenant: change.slug, dryRun: true })).decision, CHANGED_LIMIT) ===
          change.value,
        PROPAGATION_CAP_MS,
      ),
    );
    const next = started + (j + 1) * 1_000;
    if (next > performance.now()) await sleep(next - performance.now());
  }
  return run;
}

/** One change a second until `stop` resolves (the load of "during changes"): changes made and answered. */
export async function changeEverySecond(
  changer: Changer,
  stop: Promise<void>,
): Promise<{ made: number; answered: number }> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  let made = 0;
  let answered = 0;
  const started = performance.now();
  while (!stopped) {
    // a failed or cut change still counts as made: the checks are what this load measures
    if (await changer.change().catch(() => null)) answered++;
    made++;
    const next = started + made * 1_000;
    if (next > performance.now()) await Promise.race([sleep(next - performance.now()), stop]);
  }
  return { made, answered };
}
