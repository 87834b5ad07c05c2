import "server-only";
import pg from "pg";

// A pg client that sends its queries one after another itself. Inside a transaction Prisma
// holds ONE client and its query interpreter loads sibling relations with Promise.all, so
// several queries reach that client at once (prisma/orm#29407). pg 8 queues them but warns
// ("Calling client.query() when the client is already executing a query", in the app's log
// on every such read), and pg 9 removes the queue: those transactions would then fail. Here
// each query waits for the one before it on the same client, so pg never sees two at once.
// Pooled queries are unaffected: each takes a client of its own.

type QueryArgs = unknown[];
type Callback = (error: Error | null, result?: unknown) => void;
type BaseQuery = (this: pg.Client, ...args: QueryArgs) => unknown;

// query() is overloaded (text, config, submittable; promise or callback): one signature cannot
// name them all, and this wrapper passes whatever it was given straight through.
const baseQuery = pg.Client.prototype.query as unknown as BaseQuery;
const settled = (): void => undefined;

const isSubmittable = (value: unknown): boolean =>
  typeof value === "object" && value !== null && typeof (value as { submit?: unknown }).submit === "function";

export class SerialPgClient extends pg.Client {
  /** settles when the last query handed to this client has finished */
  private tail: Promise<void> = Promise.resolve();

  /** Runs `send` after every earlier query of this client has finished. */
  private inTurn<T>(send: () => Promise<T>): Promise<T> {
    const result = this.tail.then(send);
    this.tail = result.then(settled, settled);
    return result;
  }

  static {
    Object.defineProperty(SerialPgClient.prototype, "query", {
      configurable: true,
      writable: true,
      value: function query(this: SerialPgClient, ...args: QueryArgs): unknown {
        // a stream or cursor manages its own life on the connection: not queued here
        if (isSubmittable(args[0])) return baseQuery.apply(this, args);
        const last = args[args.length - 1];
        if (typeof last === "function") {
          // callback form (pg-pool's pool.query): queued the same way, answered through it
          const callback = last as Callback;
          void this.inTurn(
            () =>
              new Promise<void>((resolve) => {
                baseQuery.apply(this, [
                  ...args.slice(0, -1),
                  (error: Error | null, result?: unknown) => {
                    resolve();
                    callback(error, result);
                  },
                ]);
              }),
          ).catch((error: Error) => callback(error));
          return undefined;
        }
        return this.inTurn(() => baseQuery.apply(this, args) as Promise<unknown>);
      },
    });
  }
}
