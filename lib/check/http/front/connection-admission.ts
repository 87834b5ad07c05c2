// Which connections a process keeps when they pile up: at most `maxPerAddress` from one
// client address (the socket's peer), and at most `maxConnections` in all. A new connection
// past the cap takes the place of the one that has been quiet longest among those that owe
// their client nothing (idle), so idle connections, which cost a client only a reconnect,
// can never keep a new one out; only when none is idle is the new one refused.
// Bookkeeping is per connection: admitted, released, and moved to the back of the order
// when its owner notes activity (a changed mark, such as the bytes read so far).

/** Why a connection was not admitted. */
export type Refusal = "address_full" | "full";

export interface AdmissionPolicy<T> {
  maxConnections: number;
  maxPerAddress: number;
  /** true when closing the connection loses nothing its client is owed */
  isIdle(connection: T): boolean;
  /** closes an idle connection to make room for a new one */
  shed(connection: T): void;
}

interface Entry {
  address: string;
  mark: number;
}

export class ConnectionAdmission<T extends object> {
  /** in order of last noted activity: the longest quiet first */
  private readonly entries = new Map<T, Entry>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly policy: AdmissionPolicy<T>) {}

  get size(): number {
    return this.entries.size;
  }

  /** The admitted connections, the longest quiet first. */
  [Symbol.iterator](): IterableIterator<T> {
    return this.entries.keys();
  }

  /** Connections admitted from `address` and not yet released. */
  countFrom(address: string): number {
    return this.perAddress.get(address) ?? 0;
  }

  /**
   * Admits a new connection from `address`, made by `open` only once it is admitted, or
   * says why not (the caller closes it). At the cap the longest quiet idle connection is
   * shed first.
   */
  admit(address: string, open: () => T): T | Refusal {
    const from = this.countFrom(address);
    if (from >= this.policy.maxPerAddress) return "address_full";
    if (this.entries.size >= this.policy.maxConnections && !this.shedOne()) return "full";
    const connection = open();
    this.entries.set(connection, { address, mark: 0 });
    this.perAddress.set(address, from + 1);
    return connection;
  }

  /** The connection was active if `mark` changed since last noted: it goes to the back. */
  noteActivity(connection: T, mark: number): void {
    const entry = this.entries.get(connection);
    if (entry === undefined || entry.mark === mark) return;
    entry.mark = mark;
    this.entries.delete(connection);
    this.entries.set(connection, entry);
  }

  /** The connection closed or left this process (repeated calls do nothing). */
  release(connection: T): void {
    const entry = this.entries.get(connection);
    if (entry === undefined) return;
    this.entries.delete(connection);
    const left = (this.perAddress.get(entry.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(entry.address, left);
    else this.perAddress.delete(entry.address);
  }

  private shedOne(): boolean {
    for (const connection of this.entries.keys()) {
      if (!this.policy.isIdle(connection)) continue;
      this.release(connection);
      this.policy.shed(connection);
      return true;
    }
    return false;
  }
}
