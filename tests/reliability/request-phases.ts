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
const listeners: [string, (message: unknown) => void][] = [];

export function watchPhases(): void {
  if (listeners.length) return;
  for (const [channel, phase] of Object.entries(CHANNELS)) {
    const listener = (): void => {
      const phases = store.getStore();
      if (phases && phases[phase] === undefined) phases[phase] = performance.now();
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
