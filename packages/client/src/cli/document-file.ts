// A config file as the CLI reads it: its text, its parse (for positions), and the server's
// document errors turned into `file:line:col: path: message` lines.
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { CliError, EXIT_FAILURE } from "./errors";
import type { ApiErrorBody } from "./http";
import { YamlLocator } from "./yaml-locate";

export interface DocumentFile {
  name: string;
  text: string;
  contentType: string;
  /** the parsed value (for scoping the diff) */
  input: unknown;
  locator: YamlLocator;
}

/** A file's text ("-": stdin) and the name to show for it. */
export async function readTextFile(
  name: string,
  stdin: () => Promise<string>,
): Promise<{ name: string; text: string }> {
  try {
    const text = name === "-" ? await stdin() : await readFile(name, "utf8");
    return { name: name === "-" ? "<stdin>" : name, text };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(`Cannot read ${name}: ${typeof code === "string" ? code : String(error)}.`);
  }
}

export async function readDocumentFile(name: string, stdin: () => Promise<string>): Promise<DocumentFile> {
  const { name: shown, text } = await readTextFile(name, stdin);
  const locator = new YamlLocator(text);
  const syntax = locator.syntaxErrors();
  if (syntax.length > 0) {
    const lines = syntax.map((e) => `${shown}:${e.position.line}:${e.position.col}: ${e.message}`);
    throw new CliError(`${shown} is not valid YAML; nothing was sent.`, EXIT_FAILURE, lines);
  }
  const contentType = /\.json$/i.test(name) ? "application/json" : "application/yaml";
  return { name: shown, text, contentType, input: parse(text) as unknown, locator };
}

/** Every error of a 422 answer, each at its line and column in the file. */
export function documentErrorLines(file: DocumentFile, body: ApiErrorBody): string[] {
  const errors =
    body.errors && body.errors.length > 0
      ? body.errors
      : [{ path: body.error.path ?? "", message: body.error.message }];
  return errors.map((error) => {
    const position = file.locator.locate(error.path);
    const where = position ? `${file.name}:${position.line}:${position.col}` : file.name;
    return `${where}: ${error.path ? `${error.path}: ` : ""}${error.message}`;
  });
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
