import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { runCli } from "../../src/cli.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import { standInGitHub } from "../helpers/app-harness.js";
import { builtCommand, builtFile } from "../helpers/server-build.js";

/** The CLI as scripts use it: its output and its exit codes. */
async function cli(argv: string[], env: Record<string, string> = {}, stdin?: string) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    argv,
    { SCORER: "offline", ...env },
    {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      readStdin: () => stdin,
    },
  );
  return { code, stdout, stderr };
}

// Thresholds any task passes, to see exit code 0 with --fail-on-reject.
const LENIENT = { APPROVAL_MIN_AVERAGE: "1", APPROVAL_MIN_SCORE: "1", APPROVAL_MIN_SUPPORTERS: "0" };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("task-scorer CLI", () => {
  it("--help prints usage with the commands and exit codes", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain('task-scorer score --title "<title>"');
    expect(stdout).toContain("task-scorer serve");
    expect(stdout).toContain(
      "Exit codes: 0 scored, 1 not approved (with --fail-on-reject), 2 bad input, 3 the scorer failed.",
    );
  });

  it("score --json prints the same report as the API", async () => {
    const { code, stdout } = await cli(["score", "--title", "Add CSV export", "--json"]);
    expect(code).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(stdout));
    expect(report.task).toBe("Add CSV export");
    expect(report.expertScores.map((e) => e.expert)).toEqual([
      "Revenue Expert",
      "Technical Architect",
      "UX Designer",
      "Product Manager",
      "Marketing Strategist",
    ]);
  });

  it("reads the description from a file or from piped standard input", async () => {
    const file = join(dir, "body.md");
    writeFileSync(file, "Let free users upgrade to Pro with Stripe checkout.");
    const fromFile = JSON.parse((await cli(["score", "-t", "Add checkout", "-f", file, "--json"])).stdout);
    expect(fromFile.description).toBe("Let free users upgrade to Pro with Stripe checkout.");
    const fromStdin = JSON.parse(
      (await cli(["score", "-t", "Add checkout", "--json"], {}, "piped text")).stdout,
    );
    expect(fromStdin.description).toBe("piped text");
  });

  it("prints a readable report without --json: each persona, the verdict and each condition", async () => {
    const { stdout } = await cli(["score", "--title", "Add Stripe checkout"]);
    expect(stdout).toMatch(/💼 {2}Revenue Expert +\d+\/10 /);
    expect(stdout).toMatch(/(✅ Approved|❌ Not approved): average/);
    expect(stdout.match(/^ {2}[✅❌] /gmu)).toHaveLength(3);
  });

  it("prints the author's ask first, under the title, and no 'Asks' line where there is none", async () => {
    const { stdout } = await cli([
      "score",
      "--title",
      "Card payments",
      "-d",
      "Hi all!\n\nPlease add card payments at checkout.\u001b[2J",
    ]);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("Card payments");
    expect(lines[1]).toBe("Asks: “Please add card payments at checkout. [2J”");
    const none = await cli(["score", "--title", "Card payments", "-d", "Version 2.3.1 on Ubuntu 22.04."]);
    expect(none.stdout).not.toContain("Asks:");
  });

  it("--fail-on-reject exits 1 when not approved and 0 when approved", async () => {
    expect((await cli(["score", "--title", "Fix typo", "--fail-on-reject"])).code).toBe(1);
    expect((await cli(["score", "--title", "Fix typo", "--fail-on-reject"], LENIENT)).code).toBe(0);
    // Without the flag a rejected task still exits 0: it was scored.
    expect((await cli(["score", "--title", "Fix typo"])).code).toBe(0);
  });

  it("exits 2 on bad input, saying what is wrong", async () => {
    const empty = await cli(["score", "--title", "   "]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("must not be empty");
    expect((await cli(["score"])).stderr).toContain("--title is required");
    expect((await cli(["score", "--title", "x", "--bogus"])).code).toBe(2);
    expect((await cli(["score", "--title", "x", "-f", join(dir, "missing.md")])).stderr).toContain(
      "cannot be read",
    );
    expect((await cli(["frobnicate"])).code).toBe(2);
    const badEnv = await cli(["score", "--title", "x"], { APPROVAL_MIN_AVERAGE: "eleven" });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("APPROVAL_MIN_AVERAGE");
  });

  describe("with the LLM scorer (a stand-in provider on loopback)", () => {
    // Kept as each test leaves it: each sets llmFailStatus itself.
    const github = standInGitHub({ keep: true });
    const llm = () => ({
      SCORER: "openai",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: `${github.url}/llm/v1`,
      OPENAI_MAX_RETRIES: "0",
      LOG_LEVEL: "silent",
    });

    it("uses the same scorer choice and environment as the server", async () => {
      github.llmFailStatus = undefined;
      const { code, stdout } = await cli(["score", "--title", "Add CSV export", "--json"], llm());
      expect(code).toBe(0);
      expect(
        JSON.parse(stdout).expertScores.every((e: { score: number }) => e.score === github.llmScore),
      ).toBe(true);
    });

    it("exits 3 when the scorer fails, and never prints the key", async () => {
      github.llmFailStatus = 503;
      const { code, stderr, stdout } = await cli(["score", "--title", "Add CSV export"], llm());
      expect(code).toBe(3);
      expect(stdout).toBe("");
      expect(stderr).not.toContain("test-key");
      github.llmFailStatus = undefined;
    });
  });

  it("runs as a program: a shell pipe is the description; exit code; report on stdout only", () => {
    const root = new URL("../..", import.meta.url).pathname;
    const env = { PATH: process.env.PATH, SCORER: "offline", ...LENIENT };
    const piped = spawnSync(
      "sh",
      [
        "-c",
        `printf 'Export the table as CSV.' | "${process.execPath}" "${builtFile("src/cli.ts")}" score --title "Add CSV export" --json --fail-on-reject`,
      ],
      { cwd: root, env, encoding: "utf8" },
    );
    expect(piped.status).toBe(0);
    expect(JSON.parse(piped.stdout).description).toBe("Export the table as CSV.");

    // A program's own pipe (a socket) is read only when asked with "-f -": an idle one never hangs the CLI.
    const spawned = spawnSync(
      ...builtCommand("src/cli.ts", "score", "--title", "Add CSV export", "--json", "-f", "-"),
      { cwd: root, env, input: "From a program.", encoding: "utf8" },
    );
    expect(spawned.status).toBe(0);
    expect(JSON.parse(spawned.stdout).description).toBe("From a program.");
  });
});

describe("task-scorer score --diff (issue 31)", () => {
  const DIFF = [
    "diff --git a/src/export.ts b/src/export.ts",
    "--- a/src/export.ts",
    "+++ b/src/export.ts",
    "@@ -1,1 +1,3 @@",
    "-export const a = 1;",
    "+export const a = 2;",
    "+export const b = 3;",
    "+export const c = 4;",
    "diff --git a/test/export.test.ts b/test/export.test.ts",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/test/export.test.ts",
    "@@ -0,0 +1 @@",
    "+it('exports', () => {});",
    "",
  ].join("\n");
  const CHANGE = {
    files: 2,
    additions: 4,
    deletions: 1,
    tests: { files: 1 },
    docs: 0,
    generated: 0,
    dependencies: [],
    size: "XS",
    truncated: false,
  };

  it("--diff - reads the change from standard input (git diff main | task-scorer score …)", async () => {
    const { code, stdout } = await cli(["score", "-t", "Add CSV export", "--diff", "-", "--json"], {}, DIFF);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.reading.change).toEqual(CHANGE);
    // Standard input was the diff, not the description.
    expect(report.description).toBe("");
  });

  it("--diff FILE reads it from a file, and the text output has a Change line under the ask", async () => {
    const file = join(dir, "change.diff");
    writeFileSync(file, DIFF);
    const json = await cli(["score", "-t", "Add CSV export", "--diff", file, "--json"]);
    expect(JSON.parse(json.stdout).reading.change).toEqual(CHANGE);
    const text = await cli(["score", "-t", "Add CSV export", "-d", "Users ask for CSV.", "--diff", file]);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe("Add CSV export");
    expect(lines).toContain("Change: +4 −1 in 2 files · tests: 1 file · size XS");
    expect(lines.indexOf("Change: +4 −1 in 2 files · tests: 1 file · size XS")).toBeLessThan(
      lines.indexOf(""),
    );
  });

  it("has no Change line without --diff", async () => {
    const { stdout } = await cli(["score", "-t", "Add CSV export"]);
    expect(stdout).not.toContain("Change:");
  });

  it("exit 2 with a sentence naming --diff for text that is no diff, a missing file, or two uses of stdin", async () => {
    const notDiff = await cli(["score", "-t", "x", "--diff", "-"], {}, "just words\n");
    expect(notDiff.code).toBe(2);
    expect(notDiff.stderr).toMatch(/diff: `diff` holds no diff header/);
    const missing = await cli(["score", "-t", "x", "--diff", join(dir, "nope.diff")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.diff cannot be read");
    const both = await cli(["score", "-t", "x", "--diff", "-", "-f", "-"], {}, DIFF);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("not both");
  });
});
