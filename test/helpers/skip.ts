import { describe } from "@jest/globals";

/**
 * `describe` when `reason` is undefined; otherwise the block is skipped and the reason is printed where a
 * person sees it. Straight to stderr: jest shows no console output for a suite whose tests are all skipped.
 */
export function describeUnless(reason: string | undefined, name: string, fn: () => void): void {
  if (reason === undefined) {
    describe(name, fn);
    return;
  }
  process.stderr.write(`\nSkipping "${name}": ${reason}\n`);
  describe.skip(name, fn);
}

/** Why a suite that needs these environment variables cannot run here, or undefined when it can. */
export function missingEnv(vars: string[]): string | undefined {
  const missing = vars.filter((v) => !process.env[v]);
  return missing.length === 0
    ? undefined
    : `${missing.join(" and ")} not set (.ci/run sets DATABASE_URL=postgres://postgres@127.0.0.1:5432/test and REDIS_URL=redis://127.0.0.1:6379).`;
}
