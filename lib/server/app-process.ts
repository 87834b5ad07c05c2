import "server-only";
import { fork, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { z } from "zod";

// The app process (Next.js: dashboard, admin API, health) as the front's child: the front
// keeps the port and the checks, and passes every other connection here with the bytes it
// already read, so no page render, import or parse can hold up a check's event loop.
// Restarted when it dies; stopped with the front.

export interface HandOffMessage {
  kind: "connection";
  /** bytes the front read but did not consume: the child reads them first */
  unread: Buffer | null;
}

const ReadyMessage = z.object({ kind: z.literal("ready") });

const RESTART_MS = 1_000;
const STOP_GRACE_MS = 3_000;

const UNAVAILABLE =
  '{"error":{"code":"store_unavailable","message":"The app process is restarting; try again shortly."}}';
const UNAVAILABLE_RESPONSE =
  "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n" +
  `content-length: ${UNAVAILABLE.length}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${UNAVAILABLE}`;

interface ReadableHandle {
  readStop?: () => number;
}

/**
 * Everything read from the socket and not consumed, and no more reading here: what the
 * front's connection left, then what the paused stream buffered since. Bytes not yet read
 * from the kernel travel with the socket itself.
 */
export function takeUnread(socket: Socket, unread: Buffer | null): Buffer | null {
  const parts: Buffer[] = unread === null ? [] : [unread];
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
    parts.push(chunk);
  }
  // net.Socket has no public way to stop reading a paused socket; the handle does (an
  // internal field its types do not declare, hence the cast).
  (socket as unknown as { _handle?: ReadableHandle | null })._handle?.readStop?.();
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/**
 * The app's node flags: the front's (source maps, profiling) without its heap cap and without
 * `--no-memory-reducer` (the front turns V8's idle-time compaction off for its check latency;
 * the dashboard's process, idle most of the time, should give memory back), and its own cap.
 */
export function appExecArgv(frontArgv: readonly string[], heapMb: number): string[] {
  const own: string[] = [];
  for (let i = 0; i < frontArgv.length; i++) {
    const arg = frontArgv[i] as string;
    if (arg === "--max-old-space-size" || arg === "--max_old_space_size") i++;
    else if (/^--no[-_]memory[-_]reducer$/.test(arg)) continue;
    else if (!/^--max[-_]old[-_]space[-_]size=/.test(arg)) own.push(arg);
  }
  return [...own, `--max-old-space-size=${heapMb}`];
}

export class AppProcess {
  private child: ChildProcess | null = null;
  private ready = false;
  private stopping = false;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly script: string,
    private readonly args: readonly string[],
    private readonly heapMb: number,
  ) {
    this.spawn();
  }

  /** Resolves once the app process has prepared Next and takes connections. */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  handOff(socket: Socket, unread: Buffer | null): void {
    const child = this.child;
    if (child === null || !this.ready || !child.connected) {
      socket.end(UNAVAILABLE_RESPONSE, "latin1");
      return;
    }
    const message: HandOffMessage = { kind: "connection", unread: takeUnread(socket, unread) };
    child.send(message, socket, { keepOpen: false }, (error) => {
      if (error) socket.destroy();
    });
  }

  /** Stops the app process (SIGTERM, then SIGKILL after a grace period). */
  stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child === null || child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      child.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill("SIGTERM");
    });
  }

  private spawn(): void {
    const child = fork(this.script, [...this.args], {
      serialization: "advanced",
      stdio: "inherit",
      execArgv: appExecArgv(process.execArgv, this.heapMb),
    });
    this.child = child;
    child.on("message", (message: unknown) => {
      if (!ReadyMessage.safeParse(message).success) return;
      this.ready = true;
      for (const resolve of this.waiters.splice(0)) resolve();
    });
    child.on("error", (error) => console.error(`[sluice] app process: ${error.message}`));
    child.on("exit", (code, signal) => {
      if (this.child === child) {
        this.child = null;
        this.ready = false;
      }
      if (this.stopping) return;
      console.error(`[sluice] app process exited (${signal ?? code}); restarting`);
      setTimeout(() => this.spawn(), RESTART_MS);
    });
  }
}
