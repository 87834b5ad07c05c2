// How both soaks run: cleaned up on Ctrl-C or SIGTERM as on a normal end, and the process's
// exit code is the verdict (0 pass, 1 fail).
export async function runSoak(main: () => Promise<boolean>, cleanUp: () => Promise<void>): Promise<never> {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(signal === "SIGINT" ? 130 : 143)));
  }
  let passed = false;
  try {
    passed = await main();
  } finally {
    await cleanUp();
  }
  process.exit(passed ? 0 : 1);
}
