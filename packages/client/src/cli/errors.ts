// Exit codes of every command (docs/cli.md): 0 success / no change, 1 changes found (diff)
// or a check denied, 2 invalid input or any failure. A CliError carries the sentence
// to print and the code to exit with.

export const EXIT_OK = 0;
export const EXIT_CHANGES = 1;
export const EXIT_FAILURE = 2;

export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
    /** lines printed before the sentence, as they are (e.g. `file:line:col: ...`) */
    readonly details: string[] = [],
  ) {
    super(message);
  }
}
