// The admin API as the bench calls it: fetch (its own connections, so that admin requests,
// which the front hands to the app process, never share a connection with checks), each
// call timed and cut off at a cap so that a slow step cannot hang the bench.
import { z } from "zod";

export interface Timed<T> {
  ms: number;
  /** null when the call was cut at its cap */
  status: number | null;
  body: T | null;
  text: string;
}

export class Admin {
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  async call(method: string, path: string, body: unknown, capMs: number): Promise<Timed<unknown>> {
    const started = performance.now();
    try {
      const response = await fetch(`${this.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(capMs),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      return { ms, status: response.status, body: parsed, text: text.slice(0, 500) };
    } catch (error) {
      const cut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      if (!cut) throw error;
      return { ms: performance.now() - started, status: null, body: null, text: "" };
    }
  }
}

const ImportAnswer = z.object({ configVersion: z.number().int().nullable() });
const KeyAnswer = z.object({ id: z.string(), key: z.string() });

/** The version a 200 import made (null: nothing changed); throws on any other answer. */
export function importedVersion(answer: Timed<unknown>, what: string): number | null {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status ?? "cut"} ${answer.text}`);
  return ImportAnswer.parse(answer.body).configVersion;
}

export function createdKey(answer: Timed<unknown>): { id: string; key: string } {
  if (answer.status !== 201) throw new Error(`key creation: ${answer.status ?? "cut"} ${answer.text}`);
  return KeyAnswer.parse(answer.body);
}
