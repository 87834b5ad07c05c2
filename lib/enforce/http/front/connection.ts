import type { Socket } from "node:net";
import type { HttpAnswer } from "@/lib/enforce/http/answer";
import { atTurnEnd } from "@/lib/enforce/http/turn-end-writes";
import {
  MAX_HEAD_BYTES,
  parseRequestHead,
  type Endpoint,
  type LeanRequest,
} from "@/lib/enforce/http/front/request-head";
import { responseHead } from "@/lib/enforce/http/front/response-text";

// One client connection of the lean front: frames requests (head, then Content-Length bytes
// of body), answers those parseRequestHead accepts, and writes the answers in request order
// (pipelined requests may be answered out of order by Redis). The first request it does not
// accept, and everything after it, goes to node:http: once the answers before it are
// written, the unread bytes are put back on the socket and the socket is handed over.

export interface FrontHandler {
  bodyLimit(endpoint: Endpoint): number;
  /** The refusal of a request whose body is over the limit (401 or 413); the connection then closes. */
  refuse(request: LeanRequest): HttpAnswer;
  /** Answers a request with its body read; `respond` is called once, now or later. */
  serve(request: LeanRequest, body: string, respond: (answer: HttpAnswer) => void): void;
}

export interface ConnectionOptions {
  keepAliveSeconds: number;
  /** the socket, paused, with the bytes not yet read by this connection */
  handOff(socket: Socket, unread: Buffer | null): void;
}

/** Unanswered requests per connection before reading pauses (a pipelining client). */
const MAX_IN_FLIGHT = 256;

interface Slot {
  /** the response, head and body as one ASCII string, or a head and the body's bytes */
  text: string | null;
  bytes: Buffer | null;
  close: boolean;
}

export class FrontConnection {
  /** since when a request has been partly received (0: none); the front closes slow ones */
  partialSince = 0;
  private pending: Buffer | null = null;
  private request: LeanRequest | null = null;
  private bodyAt = 0;
  private readonly slots: Slot[] = [];
  private reading = false;
  private flushQueued = false;
  /** no request after the current ones: the client ended, asked to close, or was refused */
  private closing = false;
  private handingOff = false;
  private paused = false;

  constructor(
    readonly socket: Socket,
    private readonly handler: FrontHandler,
    private readonly options: ConnectionOptions,
  ) {
    socket.on("data", this.onData);
    socket.on("end", this.onEnd);
    socket.on("drain", this.onDrain);
    socket.on("error", this.onError);
  }

  /** True while nothing is owed to the client: it may be closed without losing an answer. */
  get idle(): boolean {
    return this.slots.length === 0 && this.pending === null;
  }

  /** Shutting down: answer what was asked, then close. */
  close(): void {
    this.closing = true;
    if (this.slots.length === 0 && !this.handingOff) this.socket.end();
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.closing || this.handingOff) return;
    this.pending = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.parse();
  };

  private readonly onEnd = (): void => {
    this.closing = true;
    this.pending = null;
    if (this.slots.length === 0 && !this.handingOff) this.socket.end();
  };

  private readonly onDrain = (): void => this.throttle();

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private parse(): void {
    this.reading = true;
    try {
      while (
        this.pending !== null &&
        !this.closing &&
        !this.handingOff &&
        this.slots.length < MAX_IN_FLIGHT
      ) {
        if (!this.nextRequest(this.pending)) break;
      }
    } finally {
      this.reading = false;
    }
    if (this.pending === null) this.partialSince = 0;
    else if (this.partialSince === 0) this.partialSince = Date.now();
    this.throttle();
  }

  /** Frames and dispatches one request from `data`; false when more bytes are needed (or handed off). */
  private nextRequest(data: Buffer): boolean {
    let request = this.request;
    if (request === null) {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0 || end > MAX_HEAD_BYTES) {
        if (end >= 0 || data.length > MAX_HEAD_BYTES) this.handOff();
        return false;
      }
      request = parseRequestHead(data.toString("latin1", 0, end));
      if (request === null) {
        this.handOff();
        return false;
      }
      if (request.contentLength > this.handler.bodyLimit(request.endpoint)) {
        // the body is not read: answer, then close
        this.pending = null;
        this.closing = true;
        this.answer(this.slot(true), this.handler.refuse(request));
        return false;
      }
      this.request = request;
      this.bodyAt = end + 4;
    }
    const need = this.bodyAt + request.contentLength;
    if (data.length < need) return false;
    const body = data.toString("utf8", this.bodyAt, need);
    this.request = null;
    this.pending = need === data.length ? null : data.subarray(need);
    if (request.close) this.closing = true;
    const slot = this.slot(request.close);
    this.handler.serve(request, body, (answer) => this.answer(slot, answer));
    return true;
  }

  private slot(close: boolean): Slot {
    const slot: Slot = { text: null, bytes: null, close };
    this.slots.push(slot);
    return slot;
  }

  private answer(slot: Slot, answer: HttpAnswer): void {
    if (slot.text !== null) return;
    slot.close ||= answer.close === true;
    const head = responseHead(answer, this.options.keepAliveSeconds, slot.close);
    if (typeof answer.body === "string") slot.text = head + answer.body;
    else {
      slot.text = head;
      slot.bytes = answer.body;
    }
    if (!this.reading) this.flush();
    else if (!this.flushQueued) {
      // answered from memory while reading: written with the turn's other such answers
      // (lib/enforce/http/turn-end-writes.ts)
      this.flushQueued = true;
      atTurnEnd(this.flush);
    }
  }

  /**
   * Writes the answers that are ready, in request order, in one write: ASCII text one byte
   * per character (latin1, no UTF-8 encoding step), bytes as they are.
   */
  private readonly flush = (): void => {
    this.flushQueued = false;
    const { socket } = this;
    if (socket.destroyed) return;
    let out = "";
    let corked = false;
    let close = false;
    while (this.slots.length > 0 && (this.slots[0] as Slot).text !== null) {
      const slot = this.slots.shift() as Slot;
      out += slot.text;
      if (slot.bytes !== null) {
        if (!corked) socket.cork();
        corked = true;
        socket.write(out, "latin1");
        socket.write(slot.bytes);
        out = "";
      }
      if (slot.close) {
        close = true;
        break;
      }
    }
    if (out !== "") socket.write(out, "latin1");
    if (corked) socket.uncork();
    if (close) {
      this.slots.length = 0;
      this.closing = true;
      this.socket.end();
      return;
    }
    if (this.slots.length > 0) {
      this.throttle();
      return;
    }
    if (this.handingOff) this.completeHandOff();
    else if (this.closing) this.socket.end();
    else this.throttle();
  };

  /** Reading pauses while too many answers are owed or the client does not read them. */
  private throttle(): void {
    if (this.closing || this.handingOff || this.socket.destroyed) return;
    const hold = this.slots.length >= MAX_IN_FLIGHT || this.socket.writableNeedDrain;
    if (hold && !this.paused) {
      this.paused = true;
      this.socket.pause();
    } else if (!hold && this.paused) {
      this.paused = false;
      this.socket.resume();
      if (this.pending !== null) this.parse();
    }
  }

  private handOff(): void {
    this.handingOff = true;
    this.socket.pause();
    if (this.slots.length === 0) this.completeHandOff();
  }

  private completeHandOff(): void {
    const { socket } = this;
    socket.removeListener("data", this.onData);
    socket.removeListener("end", this.onEnd);
    socket.removeListener("drain", this.onDrain);
    socket.removeListener("error", this.onError);
    const unread = this.pending;
    this.pending = null;
    this.options.handOff(socket, unread);
  }
}
