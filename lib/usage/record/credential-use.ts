import "server-only";

// When API keys and service tokens were last used, gathered where checks are answered and
// written with the usage flush. A credential is noted at most once a minute (the first use
// in a minute sets the time), so a busy key costs one Map lookup per check, by its id as the
// config holds it: no "k:<id>" string built per check, the prefix is added when drained.
// Bounded: ids come from the published config, and a memo is dropped past MAX_IDS.

export type CredentialKind = "key" | "token";

export const USED_EVERY_MS = 60_000;
const MAX_IDS = 100_000;
const PREFIX: Record<CredentialKind, string> = { key: "k:", token: "t:" };

export class CredentialUse {
  /** per kind: id -> when it was last noted */
  private readonly noted: Record<CredentialKind, Map<string, number>> = { key: new Map(), token: new Map() };
  private pending: Record<CredentialKind, Map<string, number>> = { key: new Map(), token: new Map() };

  mark(kind: CredentialKind, id: string, now: number): void {
    const noted = this.noted[kind];
    const last = noted.get(id);
    if (last !== undefined && now - last < USED_EVERY_MS) return;
    if (noted.size >= MAX_IDS) noted.clear();
    noted.set(id, now);
    this.pending[kind].set(id, now);
  }

  get empty(): boolean {
    return this.pending.key.size === 0 && this.pending.token.size === 0;
  }

  /** The uses noted since the last drain, as hash fields ("k:<id>" -> epoch ms). */
  drain(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const kind of ["key", "token"] as const)
      for (const [id, at] of this.pending[kind]) out[PREFIX[kind] + id] = String(at);
    this.pending = { key: new Map(), token: new Map() };
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
