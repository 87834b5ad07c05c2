import { AsyncLocalStorage } from "node:async_hooks";
import dc from "node:diagnostics_channel";

// When fetch (undici) reached each step of one request, from its own diagnostics channels:
// created, connecting (a new connection), connected, headers written to the socket, answer
// headers read, body read. For an answer over the bound that no stall explains, it says on
// which side of the socket the time went. Costs the server nothing; the client a map entry.

const CHANNELS = {
  "undici:request:create": "create",
  "undici:client:beforeConnect": "connect",
  "undici:client:connected": "connected",
  "undici:client:sendHeaders": "sent",
  "undici:request:headers": "headers",
  "undici:request:trailers": "body",
} as const;

export type Phase = (typeof CHANNELS)[keyof typeof CHANNELS];
export type Phases = Partial<Record<Phase, number>>;

const store = new AsyncLocalStorage<Phases>();
// the answer is read in the connection's context, not the request's: found by its request
const byRequest = new WeakMap<object, Phases>();
const listeners: [string, (message: unknown) => void][] = [];

function requestOf(message: unknown): object | null {
  const request = (message as { request?: unknown } | null)?.request;
  return typeof request === "object" && request !== null ? request : null;
}

export function watchPhases(): void {
  if (listeners.length) return;
  for (const [channel, phase] of Object.entries(CHANNELS)) {
    const listener = (message: unknown): void => {
      const request = requestOf(message);
      const phases = store.getStore() ?? (request ? byRequest.get(request) : undefined);
      if (!phases) return;
      if (request && phase === "create") byRequest.set(request, phases);
      if (phases[phase] === undefined) phases[phase] = performance.now();
    };
    dc.subscribe(channel, listener);
    listeners.push([channel, listener]);
  }
}

export function unwatchPhases(): void {
  for (const [channel, listener] of listeners.splice(0)) dc.unsubscribe(channel, listener);
}

/** Runs `call` with its requests' steps noted in `phases` (performance.now() ms). */
export function withPhases<T>(phases: Phases, call: () => Promise<T>): Promise<T> {
  return store.run(phases, call);
}

/** "create+0 sent+3 headers+410 body+411": each step in ms after `from`. */
export function phasesText(phases: Phases, from: number): string {
  return Object.entries(phases)
    .map(([phase, at]) => `${phase}+${(at - from).toFixed(0)}`)
    .join(" ");
}
