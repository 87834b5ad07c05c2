import {
  addWindowed,
  CODE_TOKEN_BUCKET,
  consume,
  look,
  type LocalRule,
  type Look,
  type Triple,
} from "@/lib/check/limiter/local/local-algorithms";

// One local counter on one server: its view (the converged count Redis last answered plus
// what this server counted since) and the increments it has yet to push. A sync sends the
// increments (they move to `sent`), Redis adds them to every server's and answers the
// converged state, and the view becomes that plus what was counted meanwhile. A failed
// sync puts `sent` back into the increments, so nothing counted is lost while Redis is down.

const none = (code: number): Triple => ({ a: code === CODE_TOKEN_BUCKET ? 0 : -1, b: 0, c: 0 });

export class LocalCounter {
  readonly view: Triple;
  pending: Triple;
  sent: Triple | null = null;
  /** local time of the last successful sync (0: never) */
  syncedAt = 0;
  /** counted or looked at since the last sync: the next sync includes it */
  dirty = false;

  constructor(
    /** the Redis key of its converged state (hash-tagged by tenant) */
    readonly key: string,
    readonly tenantId: string,
    public rule: LocalRule,
    public syncEveryMs: number,
  ) {
    this.view = rule.code === CODE_TOKEN_BUCKET ? { a: 0, b: 0, c: 0 } : { a: -1, b: 0, c: 0 };
    this.pending = none(rule.code);
  }

  look(cost: number, now: number, out: Look): void {
    look(this.view, this.rule, cost, now, out);
  }

  consume(cost: number, now: number): void {
    consume(this.view, this.pending, this.rule, cost, now);
  }

  /** The increments for a sync, now in flight (see restore and converge). */
  takeIncrements(): Triple {
    const sent = this.pending;
    this.sent = sent;
    this.pending = none(this.rule.code);
    return sent;
  }

  /** Redis' converged state (a, b, c as the script answers them) plus what came since. */
  converge(a: number, b: number, c: number, now: number): void {
    this.view.a = a;
    this.view.b = b;
    this.view.c = c;
    this.sent = null;
    this.syncedAt = now;
    if (this.rule.code === CODE_TOKEN_BUCKET) this.view.a += this.pending.a * this.rule.W;
    else addWindowed(this.view, this.pending);
  }

  /** The sync failed: what was sent is still to push, merged with what came since. */
  restore(): void {
    const sent = this.sent;
    if (sent === null) return;
    this.sent = null;
    if (this.rule.code === CODE_TOKEN_BUCKET) this.pending.a += sent.a;
    else {
      addWindowed(sent, this.pending);
      this.pending = sent;
    }
  }

  /** Whether it holds increments Redis has not confirmed. */
  get unsynced(): boolean {
    const p = this.pending;
    const counted = this.rule.code === CODE_TOKEN_BUCKET ? p.a > 0 : p.a >= 0;
    return counted || this.sent !== null;
  }
}
