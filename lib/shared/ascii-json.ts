// JSON text in ASCII only: every character outside it written as \uXXXX, which any JSON
// parser reads back as the same string. The check endpoints answer only such JSON, so
// their answers go to the socket as one byte per character (latin1), with no UTF-8
// encoding step and the body's length known without scanning it.

const NON_ASCII = /[\u007f-\uffff]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  NON_ASCII.lastIndex = 0;
  return NON_ASCII.test(json) ? json.replace(NON_ASCII, escape) : json;
}
