import "server-only";

// When API keys and service tokens were last used, gathered where checks are answered and
// written with the usage flush. A credential is noted at most once a minute (the first use
// in a minute sets the time), so a busy key costs a Map lookup per check and nothing more.
// Bounded: ids come from the published config, and the memo is dropped past MAX_IDS.

export type CredentialKind = "key" | "token";

export const USED_EVERY_MS = 60_000;
const MAX_IDS = 100_000;
const PREFIX: Record<CredentialKind, string> = { key: "k:", token: "t:" };

export class CredentialUse {
  /** "k:<id>" | "t:<id>" -> when it was last noted */
  private readonly noted = new Map<string, number>();
  private pending = new Map<string, number>();

  mark(kind: CredentialKind, id: string, now: number): void {
    const field = PREFIX[kind] + id;
    const last = this.noted.get(field);
    if (last !== undefined && now - last < USED_EVERY_MS) return;
    if (this.noted.size >= MAX_IDS) this.noted.clear();
    this.noted.set(field, now);
    this.pending.set(field, now);
  }

  get empty(): boolean {
    return this.pending.size === 0;
  }

  /** The uses noted since the last drain, as hash fields ("k:<id>" -> epoch ms). */
  drain(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, at] of this.pending) out[field] = String(at);
    this.pending = new Map();
    return out;
  }
}

export interface CredentialUses {
  keys: Map<string, number>;
  tokens: Map<string, number>;
}

/** Splits hash fields back into key and token ids (unknown prefixes and bad times ignored). */
export function parseUses(hash: Readonly<Record<string, string>>): CredentialUses {
  const uses: CredentialUses = { keys: new Map(), tokens: new Map() };
  for (const [field, raw] of Object.entries(hash)) {
    const at = Number(raw);
    if (!Number.isFinite(at)) continue;
    if (field.startsWith(PREFIX.key)) uses.keys.set(field.slice(2), at);
    else if (field.startsWith(PREFIX.token)) uses.tokens.set(field.slice(2), at);
  }
  return uses;
}
