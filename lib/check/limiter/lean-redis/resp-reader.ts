// RESP2 replies read straight from the socket's bytes: simple strings, errors, integers,
// bulk strings and (nested) arrays. The limiter scripts answer with arrays of integers, so
// integers are read digit by digit from the buffer, without a string per number. A reply
// cut between two reads is read again from its start once more bytes have come.

export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplyError";
  }
}

export type RespValue = string | number | null | ReplyError | RespValue[];

/** Not enough bytes yet for the reply at the cursor. */
const INCOMPLETE = Symbol("incomplete");
type Read = RespValue | typeof INCOMPLETE;

const CR = 13;

export class RespReader {
  private buffer: Buffer | null = null;
  private at = 0;

  /** Feeds bytes from the socket; calls `reply` for each complete reply, in order. */
  feed(chunk: Buffer, reply: (value: RespValue) => void): void {
    if (this.buffer === null || this.at >= this.buffer.length) {
      this.buffer = chunk;
    } else {
      this.buffer = Buffer.concat([this.buffer.subarray(this.at), chunk]);
    }
    this.at = 0;
    const buffer = this.buffer;
    while (this.at < buffer.length) {
      const start = this.at;
      const value = this.value(buffer);
      if (value === INCOMPLETE) {
        this.at = start;
        return;
      }
      reply(value);
    }
    this.buffer = null;
    this.at = 0;
  }

  reset(): void {
    this.buffer = null;
    this.at = 0;
  }

  private value(buffer: Buffer): Read {
    if (this.at >= buffer.length) return INCOMPLETE;
    const type = buffer[this.at++];
    switch (type) {
      case 58: // ':'
        return this.integer(buffer);
      case 36: {
        // '$'
        const length = this.integer(buffer);
        if (length === INCOMPLETE) return INCOMPLETE;
        if (length < 0) return null;
        const end = this.at + length;
        if (end + 2 > buffer.length) return INCOMPLETE;
        const text = buffer.toString("utf8", this.at, end);
        this.at = end + 2;
        return text;
      }
      case 42: {
        // '*'
        const count = this.integer(buffer);
        if (count === INCOMPLETE) return INCOMPLETE;
        if (count < 0) return null;
        const items = new Array<RespValue>(count);
        for (let i = 0; i < count; i++) {
          const item = this.value(buffer);
          if (item === INCOMPLETE) return INCOMPLETE;
          items[i] = item;
        }
        return items;
      }
      case 43: // '+'
      case 45: {
        // '-'
        const end = buffer.indexOf(CR, this.at);
        if (end < 0 || end + 1 >= buffer.length) return INCOMPLETE;
        const text = buffer.toString("utf8", this.at, end);
        this.at = end + 2;
        return type === 43 ? text : new ReplyError(text);
      }
      default:
        throw new Error(`RESP: unexpected byte ${type} in a reply`);
    }
  }

  /** An integer line at the cursor (after its type byte), up to and past its CRLF. */
  private integer(buffer: Buffer): number | typeof INCOMPLETE {
    let at = this.at;
    let sign = 1;
    if (buffer[at] === 45) {
      sign = -1;
      at++;
    }
    let value = 0;
    for (; at < buffer.length; at++) {
      const c = buffer[at] as number;
      if (c === CR) {
        if (at + 1 >= buffer.length) return INCOMPLETE;
        this.at = at + 2;
        return sign * value;
      }
      if (c < 48 || c > 57) throw new Error("RESP: a digit expected in an integer");
      value = value * 10 + (c - 48);
    }
    return INCOMPLETE;
  }
}
