import { describe, expect, it } from "vitest";
import { ReplyError, RespReader, type RespValue } from "@/lib/check/limiter/lean-redis/resp-reader";

// Replies as Redis writes them, fed whole, one byte at a time, and several in one read.

const WIRE =
  "+OK\r\n" +
  "-NOSCRIPT No matching script.\r\n" +
  ":-42\r\n" +
  "$4\r\nhé!\r\n" +
  "$-1\r\n" +
  "*3\r\n:1\r\n*2\r\n:9007199254740991\r\n$0\r\n\r\n*-1\r\n" +
  "*0\r\n";

function expectWire(values: RespValue[]): void {
  expect(values).toHaveLength(7);
  expect(values[0]).toBe("OK");
  expect(values[1]).toBeInstanceOf(ReplyError);
  expect((values[1] as ReplyError).message).toBe("NOSCRIPT No matching script.");
  expect(values.slice(2)).toEqual([-42, "hé!", null, [1, [9007199254740991, ""], null], []]);
}

describe("RespReader", () => {
  it("reads every reply type from one chunk", () => {
    const values: RespValue[] = [];
    new RespReader().feed(Buffer.from(WIRE), (value) => values.push(value));
    expectWire(values);
  });

  it("reads replies cut anywhere, one byte at a time", () => {
    const values: RespValue[] = [];
    const reader = new RespReader();
    const bytes = Buffer.from(WIRE);
    for (let i = 0; i < bytes.length; i++)
      reader.feed(bytes.subarray(i, i + 1), (value) => values.push(value));
    expectWire(values);
  });

  it("refuses a byte that is no reply type, and a non-digit in an integer", () => {
    expect(() => new RespReader().feed(Buffer.from("?x\r\n"), () => undefined)).toThrow(/unexpected byte/);
    expect(() => new RespReader().feed(Buffer.from(":1x\r\n"), () => undefined)).toThrow(/digit/);
  });
});
