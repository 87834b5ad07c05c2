// The `sluice` command line: parse the arguments, run one command, return its exit code.
// Every failure becomes one sentence on stderr and exit code 2 (errors.ts).
import { parseArgs } from "node:util";
import { alerts } from "./commands/alerts";
import { configApply, configDiff, configExport } from "./commands/config";
import { importEnvoy } from "./commands/import-envoy";
import { check, reset, state, type CounterFlags } from "./commands/counters";
import { keysCreate, keysList, keysRevoke } from "./commands/keys";
import { keysCreateMany } from "./commands/keys-bulk";
import { overridesCreate, overridesEnd, overridesList } from "./commands/overrides";
import { readStdin, readTextFile } from "./document-file";
import { CliError, EXIT_FAILURE, EXIT_OK } from "./errors";
import { processIo, type Io } from "./io";
import { connectionFrom, GLOBAL_OPTIONS } from "./options";
import { USAGE } from "./usage";

const OPTIONS = {
  ...GLOBAL_OPTIONS,
  prune: { type: "boolean", default: false },
  "api-key": { type: "string" },
  tenant: { type: "string" },
  key: { type: "string" },
  route: { type: "string" },
  subject: { type: "string" },
  cost: { type: "string" },
  limit: { type: "string" },
  "dry-run": { type: "boolean", default: false },
  value: { type: "string" },
  starts: { type: "string" },
  ends: { type: "string" },
  reason: { type: "string" },
  format: { type: "string" },
  "allow-private": { type: "boolean", default: false },
  kind: { type: "string" },
  endpoint: { type: "string" },
  above: { type: "string" },
  for: { type: "string" },
  names: { type: "string" },
  file: { type: "string" },
  expires: { type: "string" },
  out: { type: "string" },
  plan: { type: "string" },
  apply: { type: "boolean", default: false },
} as const;

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = processIo,
): Promise<number> {
  try {
    return await run(argv, env, io);
  } catch (error) {
    if (error instanceof CliError) {
      for (const line of error.details) io.err(line);
      io.err(`sluice: ${error.message}`);
      return error.exitCode;
    }
    io.err(`sluice: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\nSee sluice --help.`);
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, sub, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") {
    io.out(USAGE);
    return EXIT_OK;
  }
  const connection = () => connectionFrom(values, env);
  const json = values.json;
  const counters: CounterFlags = values;
  const noMore = (allowed: number) => {
    if (positionals.length > allowed)
      throw new CliError(`Unexpected argument "${positionals[allowed]}". See sluice --help.`);
  };
  switch (command) {
    case "config": {
      const ctx = { connection: connection(), io, json, stdin: readStdin };
      if (sub === "export") {
        noMore(2);
        return configExport(ctx);
      }
      const file = rest[0];
      if ((sub === "diff" || sub === "apply") && file === undefined)
        throw new CliError(`sluice config ${sub} needs a FILE (or - for stdin).`);
      noMore(3);
      if (sub === "diff") return configDiff(ctx, file!, values.prune);
      if (sub === "apply") return configApply(ctx, file!, values.prune);
      throw new CliError(
        `${sub === undefined ? "sluice config needs a command" : `Unknown config command "${sub}"`}: export, diff or apply.`,
      );
    }
    case "keys": {
      noMore(4);
      if (sub === "list") return keysList(connection(), io, json, rest[0]);
      if (sub === "create") return keysCreate(connection(), io, json, rest[0], rest[1]);
      if (sub === "revoke") return keysRevoke(connection(), io, json, rest[0], rest[1]);
      if (sub === "create-many") {
        noMore(3);
        return keysCreateMany(connection(), io, json, rest[0], values, readStdin);
      }
      throw new CliError(
        `${sub === undefined ? "sluice keys needs a command" : `Unknown keys command "${sub}"`}: list, create, create-many or revoke.`,
      );
    }
    case "overrides": {
      noMore(3);
      if (sub === "list") return overridesList(connection(), io, json, rest[0]);
      if (sub === "create") return overridesCreate(connection(), io, json, values);
      if (sub === "end") return overridesEnd(connection(), io, json, rest[0]);
      throw new CliError(
        `${sub === undefined ? "sluice overrides needs a command" : `Unknown overrides command "${sub}"`}: list, create or end.`,
      );
    }
    case "import-envoy": {
      noMore(2);
      if (sub === undefined) throw new CliError("sluice import-envoy needs a FILE (or - for stdin).");
      return importEnvoy(await readTextFile(sub, readStdin), values, io, json, connection);
    }
    case "alerts":
      return alerts(connection, io, json, positionals.slice(1), values);
    case "check":
      noMore(1);
      return check(connection(), io, json, counters);
    case "state":
      noMore(1);
      return state(connection(), io, json, counters);
    case "reset":
      noMore(1);
      return reset(connection(), io, json, counters);
    default:
      throw new CliError(`Unknown command "${command}". See sluice --help.`);
  }
}
