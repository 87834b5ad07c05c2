// Fair share of one check front between its callers. Every check passes this gate on its
// way to the limiter; the gate counts the checks in flight (started, not yet answered). While
// the front keeps up, a check starts at once: one Map lookup and two counters. When the
// window of checks in flight is full, work waits in its owner's queue (an owner is a tenant,
// or a token that may check for several tenants), and the queues are served by deficit round
// robin, by cost in checks: a batch of 1,000 counts as 1,000 and is started in chunks of at
// most `quantum`, so a quiet owner's single check waits for at most one chunk of each busy
// owner, never behind a whole batch. No owner may hold more than window - reserve checks in
// flight, so a newcomer finds free slots even while one owner floods; and while more than
// one owner has been active lately, no owner may hold more than `shared` checks in flight,
// which keeps short what another owner's check waits behind in Redis. What does not fit in
// an owner's queue is refused at once (the caller answers 429): the busy owner is the one
// slowed, then refused; nobody else waits for its work.

export interface FairOptions {
  /** checks in flight over all owners before work queues */
  window: number;
  /** slots no single owner may take: free for the others even while one floods */
  reserve: number;
  /** most checks one turn of one owner starts (deficit round robin's quantum) */
  quantum: number;
  /** most checks one owner may have waiting; more is refused */
  maxQueued: number;
  /** most checks one owner may hold in flight while other owners are active */
  shared: number;
  /** how long after another owner's last work the front counts as shared, ms */
  sharedMs: number;
  /** the clock (ms); tests pass their own */
  now?: () => number;
}

/** One unit of work: `cost` checks, started by `run`, which calls `done` once all are answered. */
export interface FairWork {
  cost: number;
  run: (done: () => void) => void;
}

interface Owner {
  key: string;
  inFlight: number;
  queued: number;
  deficit: number;
  /** started entries are cleared (undefined) up to `head` */
  queue: Array<FairWork | undefined>;
  head: number;
  /** in the ring of owners with work waiting */
  waiting: boolean;
}

export class FairGate {
  private readonly owners = new Map<string, Owner>();
  private ring: Owner[] = [];
  private turn = 0;
  private inFlight = 0;
  private pumping = false;
  private again = false;
  /** an owner's share of the window now: alone, window - reserve; shared, `options.shared` */
  private perOwner: number;
  private readonly alone: number;
  private sharedUntil = -Infinity;
  private readonly now: () => number;

  constructor(readonly options: FairOptions) {
    if (options.quantum > options.reserve || options.reserve >= options.window) {
      throw new RangeError("fair gate: quantum <= reserve < window");
    }
    if (options.shared < options.quantum || options.shared > options.window - options.reserve) {
      throw new RangeError("fair gate: quantum <= shared <= window - reserve");
    }
    this.alone = options.window - options.reserve;
    this.perOwner = this.alone;
    this.now = options.now ?? (() => performance.now());
  }

  /** Shared while two owners are active, and for `sharedMs` after: a quiet caller's checks come and go. */
  private updateShare(): void {
    const now = this.now();
    if (this.owners.size > 1) this.sharedUntil = now + this.options.sharedMs;
    this.perOwner = now < this.sharedUntil ? this.options.shared : this.alone;
  }

  /** checks started and not yet answered, over all owners */
  get active(): number {
    return this.inFlight;
  }

  /** checks waiting, over all owners */
  get queuedTotal(): number {
    let total = 0;
    for (const owner of this.ring) total += owner.queued;
    return total;
  }

  /** True when the owner's queue is full: the caller may refuse its work before reading it. */
  full(key: string): boolean {
    const owner = this.owners.get(key);
    return owner !== undefined && owner.queued >= this.options.maxQueued;
  }

  /**
   * Starts the works now or queues them behind the owner's earlier work; false (nothing
   * started or queued) when they do not fit in the owner's queue. All or none: a batch is
   * either accepted whole or refused whole.
   */
  submit(key: string, works: readonly FairWork[]): boolean {
    let owner = this.owners.get(key);
    if (owner === undefined) {
      owner = { key, inFlight: 0, queued: 0, deficit: 0, queue: [], head: 0, waiting: false };
      this.owners.set(key, owner);
    }
    this.updateShare();
    let cost = 0;
    for (const work of works) cost += work.cost;
    let i = 0;
    if (owner.queued === 0) {
      // the fast path: room in the window and in the owner's share
      for (; i < works.length; i++) {
        const work = works[i] as FairWork;
        if (!this.fits(owner, work.cost)) break;
        cost -= work.cost;
        this.start(owner, work);
      }
      if (i === works.length) return true;
    }
    if (owner.queued + cost > this.options.maxQueued && owner.queued > 0) {
      this.forget(owner);
      return false;
    }
    for (; i < works.length; i++) owner.queue.push(works[i] as FairWork);
    owner.queued += cost;
    if (!owner.waiting) {
      owner.waiting = true;
      owner.deficit = 0;
      this.ring.push(owner);
    }
    return true;
  }

  private fits(owner: Owner, cost: number): boolean {
    // a unit larger than the share still starts alone, so nothing waits forever
    return (
      (this.inFlight + cost <= this.options.window || this.inFlight === 0) &&
      (owner.inFlight + cost <= this.perOwner || owner.inFlight === 0)
    );
  }

  private start(owner: Owner, work: FairWork): void {
    owner.inFlight += work.cost;
    this.inFlight += work.cost;
    let finished = false;
    work.run(() => {
      if (finished) return;
      finished = true;
      owner.inFlight -= work.cost;
      this.inFlight -= work.cost;
      this.forget(owner);
      if (this.ring.length > 0) this.pump();
    });
  }

  /** An owner with nothing in flight or waiting leaves the map: it holds only active owners. */
  private forget(owner: Owner): void {
    if (owner.inFlight === 0 && owner.queued === 0 && this.owners.get(owner.key) === owner) {
      this.owners.delete(owner.key);
    }
  }

  /** Deficit round robin over the owners with work waiting, while the window has room. */
  private pump(): void {
    if (this.pumping) {
      this.again = true; // an answer given synchronously while starting work
      return;
    }
    this.pumping = true;
    this.updateShare();
    try {
      do {
        this.again = false;
        this.serveRing();
      } while (this.again);
    } finally {
      this.pumping = false;
    }
  }

  private serveRing(): void {
    let blocked = 0; // owners visited in a row that could start nothing
    while (this.ring.length > 0 && blocked < this.ring.length) {
      if (this.inFlight >= this.options.window) return;
      if (this.turn >= this.ring.length) this.turn = 0;
      const owner = this.ring[this.turn] as Owner;
      owner.deficit += this.options.quantum;
      let started = false;
      while (owner.head < owner.queue.length) {
        const work = owner.queue[owner.head] as FairWork;
        if (work.cost > owner.deficit || !this.fits(owner, work.cost)) break;
        owner.queue[owner.head++] = undefined;
        owner.queued -= work.cost;
        owner.deficit -= work.cost;
        started = true;
        this.start(owner, work);
      }
      if (owner.head === owner.queue.length) {
        owner.queue = [];
        owner.head = 0;
        owner.deficit = 0;
        owner.waiting = false;
        this.ring.splice(this.turn, 1);
        this.forget(owner);
        blocked = 0;
        continue;
      }
      // an owner at its share keeps no credit: it would only start a burst later
      if (!started && owner.inFlight > 0) owner.deficit = 0;
      blocked = started ? 0 : blocked + 1;
      this.turn++;
    }
  }
}
