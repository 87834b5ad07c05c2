// Protobuf's wire format, the few pieces the ShouldRateLimit codec (rls-codec.ts) needs: a
// reader over one message's bytes that skips what it does not know by its wire type, and a
// writer that sizes a message before writing it (a length-delimited field needs its length
// first). Hand-written because the general decoders (protobufjs through grpc-js) cost more
// per call than the check itself; kept to what the format defines, nothing Sluice-specific.

/** A message that breaks the wire format; the gRPC front answers it INTERNAL, as grpc-js does. */
export class WireError extends Error {}

export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
const START_GROUP = 3;
const END_GROUP = 4;
export const FIXED32 = 5;

export class WireReader {
  at: number;
  constructor(
    readonly bytes: Uint8Array,
    from = 0,
    readonly end = bytes.length,
  ) {
    this.at = from;
  }

  done(): boolean {
    return this.at >= this.end;
  }

  /** A varint as a number: exact to 2^53, past that rounded (any field of Sluice's refuses such values). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.at >= this.end) throw new WireError("truncated varint");
      const byte = this.bytes[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new WireError("varint longer than 10 bytes");
  }

  /** A uint32 field: the low 32 bits of its varint, as protobuf's own decoders read it. */
  uint32(): number {
    return this.varint() % 0x1_0000_0000;
  }

  /** The bounds of a length-delimited field's body; the reader moves past it. */
  length(): { from: number; to: number } {
    const size = this.varint();
    const from = this.at;
    if (size > this.end - from) throw new WireError("length past the end of the message");
    this.at = from + size;
    return { from, to: from + size };
  }

  string(): string {
    const { from, to } = this.length();
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + from, to - from).toString("utf8");
  }

  /** Skips a field of this wire type (whose tag was just read), groups included. */
  skip(wireType: number, field: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === FIXED64) this.advance(8);
    else if (wireType === LEN) this.length();
    else if (wireType === FIXED32) this.advance(4);
    else if (wireType === START_GROUP) {
      for (;;) {
        const tag = this.varint();
        if ((tag & 7) === END_GROUP) {
          if (tag >>> 3 !== field) throw new WireError("group ends with another field number");
          return;
        }
        this.skip(tag & 7, tag >>> 3);
      }
    } else throw new WireError(`invalid wire type ${wireType}`);
  }

  private advance(count: number): void {
    if (count > this.end - this.at) throw new WireError("truncated fixed-size field");
    this.at += count;
  }
}

/** How many bytes a varint of this (non-negative, integral) value takes. */
export function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 128)) size++;
  return size;
}

export class WireWriter {
  at = 0;
  constructor(readonly bytes: Buffer) {}

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.at++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.bytes[this.at++] = rest;
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  /** A string field already measured by `utf8Size` (its bytes written straight into the buffer). */
  string(field: number, text: string, size: number): void {
    this.tag(field, LEN);
    this.varint(size);
    this.at += this.bytes.write(text, this.at, size, "utf8");
  }
}

/** A string field's size in the message: tag, length and UTF-8 bytes. */
export function stringFieldSize(field: number, utf8Bytes: number): number {
  return varintSize(field * 8) + varintSize(utf8Bytes) + utf8Bytes;
}

/** A length-delimited field's size around a body of `bodySize` bytes. */
export function lenFieldSize(field: number, bodySize: number): number {
  return varintSize(field * 8) + varintSize(bodySize) + bodySize;
}

/** A varint field's size. */
export function varintFieldSize(field: number, value: number): number {
  return varintSize(field * 8) + varintSize(value);
}
