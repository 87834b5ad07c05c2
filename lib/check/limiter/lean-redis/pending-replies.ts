import "server-only";
import type { ReplyCallback, Script } from "@/lib/shared/redis/script-client";

// The commands sent on one connection whose replies have not come yet, in order (Redis
// answers in order). An array read from a moving head, compacted now and then, rather than
// shift(), which copies the array on every reply once it is long.

export interface Pending {
  done: ReplyCallback;
  /** a script call that may be sent again as EVAL after NOSCRIPT */
  retry?: { script: Script; keys: readonly string[]; args: readonly (string | number)[] };
}

export class PendingReplies {
  // slots before head are emptied (undefined) so the replies they held can be collected
  private entries: (Pending | undefined)[] = [];
  private head = 0;

  push(entry: Pending): void {
    this.entries.push(entry);
  }

  /** The oldest command waiting, taken off; undefined when none waits. */
  next(): Pending | undefined {
    const entry = this.entries[this.head];
    if (entry === undefined) return undefined;
    this.entries[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** Every command still waiting, oldest first, taken off (the connection closed). */
  drain(): Pending[] {
    const waiting = this.entries.slice(this.head).filter((entry): entry is Pending => entry !== undefined);
    this.entries = [];
    this.head = 0;
    return waiting;
  }
}
