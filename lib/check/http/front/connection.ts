import type { Socket } from "node:net";
import type { HttpAnswer } from "@/lib/check/answer";
import { atTurnEnd } from "@/lib/check/http/turn-end-writes";
import {
  HEAD_FOREIGN,
  headEnd,
  parseRequestHead,
  type LeanRequest,
} from "@/lib/check/http/front/request-head";
import type { ConnectionOptions, FrontHandler } from "@/lib/check/http/front/contract";
import { AnswerQueue, type AnswerSlot } from "@/lib/check/http/front/answer-queue";
import { responseHead } from "@/lib/check/http/front/response-text";
import { errorAnswer } from "@/lib/check/answer";
import { moveState, readsNoMore, type ConnectionState } from "@/lib/check/http/front/connection-state";

// One client connection of the lean front: frames requests (head, then Content-Length bytes
// of body), answers those parseRequestHead accepts, and writes the answers in request order
// (answer-queue.ts). The first request it does not
// accept, and everything after it, goes to node:http: once the answers before it are
// written, the unread bytes are put back on the socket and the socket is handed over.
// Its states and their moves: connection-state.ts.

/** Unanswered requests per connection before reading pauses (a pipelining client). */
const MAX_IN_FLIGHT = 256;

export class FrontConnection {
  /** since when a request has been partly received (0: none); the front closes slow ones */
  partialSince = 0;
  private state: ConnectionState = "open";
  // framing: bytes read and not yet framed, the request whose body is awaited, its parts
  private pending: Buffer | null = null;
  private request: LeanRequest | null = null;
  private bodyAt = 0;
  private parts: Buffer[] = [];
  private partsSize = 0;
  private readonly answers: AnswerQueue;
  // writing and flow control: inside parse(), a flush at the turn's end queued, reading paused
  private reading = false;
  private flushQueued = false;
  private paused = false;

  constructor(
    readonly socket: Socket,
    private readonly handler: FrontHandler,
    private readonly options: ConnectionOptions,
  ) {
    this.answers = new AnswerQueue(options.keepAliveSeconds);
    socket.on("data", this.onData);
    socket.on("end", this.onEnd);
    socket.on("drain", this.onDrain);
    socket.on("error", this.onError);
  }

  /** True while nothing is owed to the client: it may be closed without losing an answer. */
  get idle(): boolean {
    return this.answers.length === 0 && this.pending === null;
  }

  /**
   * A request still incomplete at its deadline (a slow or stalled client): 408 and close
   * when nothing is owed before it, else the connection is dropped (answers must stay in order).
   */
  timeOut(seconds: number): void {
    this.partialSince = 0;
    this.moveTo("closing");
    this.pending = null;
    this.parts = [];
    if (this.answers.length > 0 || this.state === "handingOff") {
      this.socket.destroy();
      return;
    }
    const answer = errorAnswer(408, "request_timeout", `The request did not arrive within ${seconds} s.`);
    this.socket.end(responseHead(answer, 0, true) + String(answer.body), "latin1");
  }

  /**
   * Shutting down: an idle connection closes now; a busy one answers what it was asked
   * (a request partly received included), its last answer saying `Connection: close`.
   */
  close(): void {
    if (readsNoMore(this.state)) return;
    if (this.answers.length === 0 && this.pending === null) {
      this.moveTo("closing");
      this.socket.end();
    } else if (this.pending !== null) this.moveTo("lastRequest");
    else {
      this.moveTo("closing");
      this.answers.closeAfterLast();
    }
  }

  private moveTo(next: ConnectionState): void {
    this.state = moveState(this.state, next);
  }

  private readonly onData = (chunk: Buffer): void => {
    if (readsNoMore(this.state)) return;
    const waiting = this.request;
    if (waiting !== null && this.pending !== null) {
      // the rest of a body (a batch's may come in many reads): joined once it is all here
      this.parts.push(chunk);
      this.partsSize += chunk.length;
      if (this.pending.length + this.partsSize < this.bodyAt + waiting.contentLength) return;
      this.pending = Buffer.concat([this.pending, ...this.parts]);
      this.parts = [];
      this.partsSize = 0;
    } else {
      this.pending = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    }
    this.parse();
  };

  private readonly onEnd = (): void => {
    this.moveTo("closing");
    this.pending = null;
    this.parts = [];
    if (this.answers.length === 0 && this.state !== "handingOff") this.socket.end();
  };

  private readonly onDrain = (): void => this.throttle();

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private parse(): void {
    this.reading = true;
    let framed = false;
    try {
      while (this.pending !== null && !readsNoMore(this.state) && this.answers.length < MAX_IN_FLIGHT) {
        if (!this.nextRequest(this.pending)) break;
        framed = true;
      }
    } finally {
      this.reading = false;
    }
    // the deadline runs from the first byte of the request still incomplete
    if (this.pending === null) this.partialSince = 0;
    else if (this.partialSince === 0 || framed) this.partialSince = Date.now();
    this.throttle();
  }

  /** Frames and dispatches one request from `data`; false when more bytes are needed (or handed off). */
  private nextRequest(data: Buffer): boolean {
    let request = this.request;
    if (request === null) {
      const end = headEnd(data);
      if (end < 0) {
        if (end === HEAD_FOREIGN) this.handOff();
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
        this.moveTo("closing");
        this.answer(this.answers.add(true), this.handler.refuse(request));
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
    const close = request.close || this.state === "lastRequest";
    if (close) this.moveTo("closing");
    const slot = this.answers.add(close);
    this.handler.serve(request, body, (answer) => this.answer(slot, answer));
    return true;
  }

  private answer(slot: AnswerSlot, answer: HttpAnswer): void {
    if (!this.answers.fill(slot, answer)) return;
    if (!this.reading) this.flush();
    else if (!this.flushQueued) {
      // answered from memory while reading: written with the turn's other such answers
      // (lib/enforce/http/turn-end-writes.ts)
      this.flushQueued = true;
      atTurnEnd(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushQueued = false;
    if (this.socket.destroyed) return;
    if (this.answers.writeReady(this.socket)) {
      this.moveTo("closing");
      this.socket.end();
      return;
    }
    if (this.answers.length > 0) {
      this.throttle();
      return;
    }
    if (this.state === "handingOff") this.completeHandOff();
    else if (this.state === "closing") this.socket.end();
    else this.throttle();
  };

  /** Reading pauses while too many answers are owed or the client does not read them. */
  private throttle(): void {
    if (readsNoMore(this.state) || this.socket.destroyed) return;
    const hold = this.answers.length >= MAX_IN_FLIGHT || this.socket.writableNeedDrain;
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
    this.moveTo("handingOff");
    this.socket.pause();
    if (this.answers.length === 0) this.completeHandOff();
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
