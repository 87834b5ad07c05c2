import type { Server as NetServer, Socket } from "node:net";
import { FrontConnection } from "@/lib/check/http/front/connection";
import { frontMetrics } from "@/lib/check/http/front/front-metrics";
import { ConnectionAdmission } from "@/lib/check/http/front/connection-admission";
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { startDateClock, stopDateClock } from "@/lib/check/http/front/response-text";

// The lean front: the app's own HTTP server accepts every connection, but the connection
// is read here first. Check requests (the hot path), and the release and adjust calls that
// follow a check on its connection, are framed and answered on the raw
// socket, without node:http's per-request machinery (parser callbacks, IncomingMessage,
// ServerResponse, header validation, stream events), which costs about as much CPU as the
// rest of a check (docs/architecture.md). At the first request of a connection that is not a
// plain check (the dashboard, the admin API, a chunked body, anything unusual) the socket
// is handed on with its unread bytes, and stays there, so everything but checks is served
// exactly as before, by Next or by lean-router.ts.
//
// In production (server.ts) the server is a plain net.Server and `handOff` passes the
// connection to the app process (lib/server/app-process.ts); given a node:http server and
// no `handOff`, its own connection handler takes them (the unit tests).
//
// Connections are admitted here (connection-admission.ts): a bound per client address and
// a cap in all, where a new connection past the cap takes the place of the longest quiet
// idle one. A connection that sends nothing is closed after `firstByteTimeoutMs`, so idle
// connections cannot be piled up for the keep-alive time without a request.

export interface LeanFrontOptions {
  /** idle keep-alive time, as node:http's keepAliveTimeout */
  keepAliveMs: number;
  /** a request still incomplete after this long is answered 408 and closed (default 10 s) */
  headersTimeoutMs?: number;
  /** where a connection goes at its first request the front does not answer */
  handOff?: (socket: Socket, unread: Buffer | null) => void;
  /** a connection that has sent no byte within this is closed (default: `keepAliveMs`) */
  firstByteTimeoutMs?: number;
  /** open connections kept (default: no cap); past it the longest quiet idle one is shed */
  maxConnections?: number;
  /** open connections kept per client address, the socket's peer (default: no bound) */
  maxConnectionsPerAddress?: number;
}

type ConnectionListener = (this: NetServer, socket: Socket) => void;

/** How often incomplete requests are looked at: a deadline is kept within this. */
const SWEEP_MS = 1_000;

export class LeanFront {
  private readonly connections: ConnectionAdmission<FrontConnection>;
  private readonly sweeper: NodeJS.Timeout;
  private readonly passOn: (socket: Socket, unread: Buffer | null) => void;

  constructor(
    private readonly server: NetServer,
    private readonly handler: FrontHandler,
    private readonly options: LeanFrontOptions,
  ) {
    this.connections = new ConnectionAdmission<FrontConnection>({
      maxConnections: options.maxConnections ?? Infinity,
      maxPerAddress: options.maxConnectionsPerAddress ?? Infinity,
      isIdle: (connection) => connection.idle,
      shed: (connection) => connection.socket.destroy(),
    });
    if (options.handOff) this.passOn = options.handOff;
    else {
      // node:http's own 'connection' listener (the one its constructor adds) is kept for the
      // connections handed over; every new connection comes here first.
      const [listener] = server.listeners("connection") as ConnectionListener[];
      if (!listener) throw new Error("node:http server without its connection listener");
      this.passOn = (socket, unread) => this.toNodeHttp(listener, socket, unread);
    }
    server.removeAllListeners("connection");
    server.on("connection", (socket: Socket) => this.accept(socket));
    server.on("close", () => this.stop());
    startDateClock();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /**
   * Shutting down (the server no longer accepts): idle connections close now, busy ones
   * once they answered what they were asked. Resolves when none is left, or at the
   * deadline, when the rest are dropped.
   */
  async drain(deadlineMs: number): Promise<void> {
    for (const connection of this.connections) connection.close();
    const until = Date.now() + deadlineMs;
    while (this.connections.size > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const connection of this.connections) connection.socket.destroy();
  }

  private accept(socket: Socket): void {
    const admitted = this.connections.admit(socket.remoteAddress ?? "", () => this.open(socket));
    // refused (over the address's bound, or at the cap with none idle): closed at once
    if (typeof admitted === "string") socket.destroy();
  }

  private open(socket: Socket): FrontConnection {
    const { keepAliveMs, firstByteTimeoutMs = keepAliveMs } = this.options;
    // Until its first byte a connection gets the short deadline; from then on the
    // keep-alive one. Registered before the connection's own reader, so a hand-off on the
    // first bytes clears it after this.
    socket.setTimeout(firstByteTimeoutMs);
    if (firstByteTimeoutMs !== keepAliveMs) socket.once("data", () => socket.setTimeout(keepAliveMs));
    const connection = new FrontConnection(socket, this.handler, {
      keepAliveSeconds: Math.round(keepAliveMs / 1000),
      handOff: (handed, unread) => this.handOff(connection, handed, unread),
    });
    socket.on("timeout", () => {
      if (connection.idle) socket.destroy();
    });
    socket.once("close", () => this.connections.release(connection));
    return connection;
  }

  private handOff(connection: FrontConnection, socket: Socket, unread: Buffer | null): void {
    frontMetrics.handOff();
    this.connections.release(connection);
    socket.setTimeout(0);
    socket.removeAllListeners("timeout");
    this.passOn(socket, unread);
  }

  private toNodeHttp(listener: ConnectionListener, socket: Socket, unread: Buffer | null): void {
    // The socket is paused: the unread bytes go back in front of anything buffered since,
    // and node:http reads them all once it resumes the socket (in this tick's nextTick queue,
    // before any new data can arrive from the network).
    if (unread !== null) socket.unshift(unread);
    listener.call(this.server, socket);
    process.nextTick(() => socket.resume());
  }

  private sweep(): void {
    const limit = this.options.headersTimeoutMs ?? 10_000;
    const now = Date.now();
    // a copy: noting activity moves a connection to the back of the order
    for (const connection of [...this.connections]) {
      if (connection.partialSince !== 0 && now - connection.partialSince > limit) {
        connection.timeOut(Math.round(limit / 1000));
      }
      // once a second, not per request: "longest quiet" is kept within a second
      this.connections.noteActivity(connection, connection.socket.bytesRead);
    }
  }

  private stop(): void {
    clearInterval(this.sweeper);
    stopDateClock();
  }
}
