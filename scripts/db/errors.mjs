// What the CLI prints when something goes wrong: a sentence, never a stack trace.

// An error whose message is already meant for the person running the command.
export class UserError extends Error {
  constructor(message) {
    super(message);
    this.name = "UserError";
  }
}

// Engine errors carry the Rust span trace after the message ("\n   0: schema_engine_wasm::...
// at engine.rs:242"): useful to Prisma's developers, noise to us. Keep what precedes it.
export function describeEngineError(error) {
  const message = String(error?.message ?? error);
  const lines = message.split("\n");
  const traceStart = lines.findIndex((line) => /^\s*\d+: \S+::/.test(line));
  const kept = (traceStart === -1 ? lines : lines.slice(0, traceStart))
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ");
  return kept || "The schema engine failed without a message.";
}

export function describeError(error) {
  if (error instanceof UserError) return error.message;
  return describeEngineError(error);
}
