import type { Socket } from "node:net";
import type { HttpAnswer } from "@/lib/check/answer";
import { responseHead } from "@/lib/check/http/front/response-text";

// The answers a connection owes, in request order: pipelined requests may be answered out
// of order (one from memory, the one before it from Redis), but their answers must leave in
// the order the requests came.

export interface AnswerSlot {
  /** the response, head and body as one ASCII string, or a head and the body's bytes */
  text: string | null;
  bytes: Buffer | null;
  close: boolean;
}

export class AnswerQueue {
  private readonly slots: AnswerSlot[] = [];

  constructor(private readonly keepAliveSeconds: number) {}

  get length(): number {
    return this.slots.length;
  }

  /** A place for the next request's answer; `close`: the connection closes after it. */
  add(close: boolean): AnswerSlot {
    const slot: AnswerSlot = { text: null, bytes: null, close };
    this.slots.push(slot);
    return slot;
  }

  /**
   * Shutting down: the connection closes after the last answer owed. Its head says so when
   * it is not rendered yet (the usual case: a check waiting on Redis).
   */
  closeAfterLast(): void {
    const last = this.slots[this.slots.length - 1];
    if (last) last.close = true;
  }

  /** Puts an answer in its place; false when the place was already answered. */
  fill(slot: AnswerSlot, answer: HttpAnswer): boolean {
    if (slot.text !== null) return false;
    slot.close ||= answer.close === true;
    const head = responseHead(answer, this.keepAliveSeconds, slot.close);
    if (typeof answer.body === "string") slot.text = head + answer.body;
    else {
      slot.text = head;
      slot.bytes = answer.body;
    }
    return true;
  }

  /**
   * Writes the answers that are ready, in order, in one write: ASCII text one byte per
   * character (latin1, no UTF-8 encoding step), bytes as they are. Returns true when it
   * wrote an answer after which the connection closes (the answers after it are dropped).
   */
  writeReady(socket: Socket): boolean {
    let out = "";
    let corked = false;
    let close = false;
    while (this.slots.length > 0 && (this.slots[0] as AnswerSlot).text !== null) {
      const slot = this.slots.shift() as AnswerSlot;
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
    if (close) this.slots.length = 0;
    return close;
  }
}
