import { once } from "node:events";
import { connect, type Socket } from "node:net";

// A raw client connection: what a slow or odd client sends, byte for byte, and what comes
// back (the text, whether and when the server closed).

export interface RawExchange {
  socket: Socket;
  /** everything received so far */
  text(): string;
  /** resolves at the close (or after `ms`): the text, whether it closed, and when */
  closed(ms: number): Promise<{ text: string; closed: boolean; ms: number }>;
  /** resolves when `pattern` has arrived (or after `ms`) */
  received(pattern: RegExp, ms: number): Promise<boolean>;
}

export async function rawConnect(port: number, send = ""): Promise<RawExchange> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  const started = performance.now();
  let text = "";
  let closedAt: number | null = null;
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.on("close", () => (closedAt = performance.now()));
  if (send !== "") socket.write(send);
  const waitFor = async (done: () => boolean, ms: number): Promise<boolean> => {
    const deadline = performance.now() + ms;
    while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return done();
  };
  return {
    socket,
    text: () => text,
    async closed(ms) {
      const closed = await waitFor(() => closedAt !== null, ms);
      return { text, closed, ms: (closedAt ?? performance.now()) - started };
    },
    received: (pattern, ms) => waitFor(() => pattern.test(text), ms),
  };
}
