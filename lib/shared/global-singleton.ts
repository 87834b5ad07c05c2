// Process-wide values (database and Redis clients, background jobs) kept on globalThis:
// Next's dev server reloads modules and its bundles may hold a module twice, and both
// copies must share one client or one set of jobs. Each value sits under its own name
// (sluiceRedis, sluicePrisma, ...) so every copy of a module, and a test, finds it.
// Isomorphic: no server-only import, tests and scripts use it too.

const registry: Record<string, unknown> = globalThis as typeof globalThis & Record<string, unknown>;

/** One named process-wide value, set and cleared by its owner. */
export interface GlobalSlot<T> {
  /** the value if there is one; never creates */
  peek(): T | undefined;
  /** sets the value, or with undefined forgets it (the next get() makes a new one) */
  set(value: T | undefined): void;
}

/** A process-wide value made on first use. */
export interface GlobalSingleton<T> extends GlobalSlot<T> {
  /** the value, made by `create` the first time (in any copy of the module) */
  get(): T;
}

/** The slot `name` on globalThis. Each name holds one type: its owner module's. */
export function globalSlot<T>(name: string): GlobalSlot<T> {
  return {
    // only this module's slot of that name writes it, with a T
    peek: () => registry[name] as T | undefined,
    set(value) {
      registry[name] = value;
    },
  };
}

/** The value `name` on globalThis, made by `create` the first time any copy of the module asks. */
export function globalSingleton<T>(name: string, create: () => T): GlobalSingleton<T> {
  const slot = globalSlot<T>(name);
  return {
    ...slot,
    get() {
      const value = slot.peek();
      if (value !== undefined) return value;
      const made = create();
      slot.set(made);
      return made;
    },
  };
}
