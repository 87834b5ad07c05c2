// The offsets of a JSON text's values by path, in one character scan of a text JSON.parse
// has accepted (so it is well formed): JSON.parse itself reports no positions.

import { childPath } from "./document-error";
import { MAX_POSITION_DEPTH } from "./source-positions";

interface Frame {
  path: string;
  array: boolean;
  index: number;
  key: string | null;
  expectKey: boolean;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return text.length - 1;
}

function decodeKey(source: string): string {
  if (!source.includes("\\")) return source.slice(1, -1);
  try {
    return String(JSON.parse(source));
  } catch {
    return source.slice(1, -1);
  }
}

const ENDS_SCALAR = new Set([44, 93, 125, 32, 10, 13, 9]);

export function jsonOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const stack: Frame[] = [];
  const record = (at: number): string => {
    const top = stack.at(-1);
    const path = !top ? "" : top.array ? childPath(top.path, top.index) : childPath(top.path, top.key ?? "");
    if (path !== "" && stack.length <= MAX_POSITION_DEPTH) out.set(path, at);
    return path;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 58) continue;
    const top = stack.at(-1);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (top && !top.array && top.expectKey) {
        top.key = decodeKey(text.slice(i, end + 1));
        top.expectKey = false;
      } else record(i);
      i = end;
    } else if (c === 44) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    } else if (c === 91 || c === 123) {
      stack.push({ path: record(i), array: c === 91, index: 0, key: null, expectKey: c === 123 });
    } else if (c === 93 || c === 125) {
      stack.pop();
    } else {
      record(i);
      while (i + 1 < text.length && !ENDS_SCALAR.has(text.charCodeAt(i + 1))) i++;
    }
  }
  return out;
}
