#!/usr/bin/env node
import { fstatSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pino from "pino";
import { REDACTED_PATHS } from "./config/create-logger.js";
import { createScorer } from "./llm/create-scorer.js";
import { approvalPolicyFromEnv } from "./config/server-env.schema.js";
import { scorerSettingsFromEnv } from "./config/llm-env.schema.js";
import { loadEnvFile } from "./config/load-env-file.js";
import { packageVersion } from "./config/package-info.js";
import { isTaskScorerError, UsageError } from "./core/errors.js";
import { scoreTask, type ScoreOutcome } from "./core/score-task.js";
import { ScoreRequestSchema } from "./core/task-request.schema.js";
import { renderChangeText } from "./core/change/render-change.js";

/** Exit codes: scripts and CI branch on these. */
export const EXIT = { scored: 0, notApproved: 1, badInput: 2, scorerFailed: 3 } as const;

const USAGE = `task-scorer: score a development task with five expert personas

Usage:
  task-scorer score --title "<title>" [--description "<text>" | --description-file <file> | < file]
                    [--diff <file> | --diff -] [--json] [--fail-on-reject]
  git diff main | task-scorer score --title "<title>" --diff -
  task-scorer serve              start the REST API (and the GitHub App when configured), as npm start does
  task-scorer --help | --version

score options:
  -t, --title <text>             the task's title (required)
  -d, --description <text>       the description
  -f, --description-file <file>  read the description from a file ("-" for standard input)
                                 (without either, a shell pipe or redirect "< file" is the description)
      --diff <file>              the pull request's change, a unified diff ("-" for standard input, as
                                 from git diff main); the report then states its files, lines and size
      --json                     print the report as JSON, the same as POST /score-task returns
      --fail-on-reject           exit with 1 when the task is not approved

The scorer, the approval thresholds and the model settings come from the same environment variables
as the server (and .env in the working directory): SCORER, OPENAI_API_KEY, APPROVAL_MIN_AVERAGE, ...

Exit codes: 0 scored, 1 not approved (with --fail-on-reject), 2 bad input, 3 the scorer failed.
`;

interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * The description from standard input when it is a shell pipe or a redirected file. Never a terminal,
   * and not a program's socket pair, which may stay open unwritten: "-f -" reads those explicitly.
   */
  readStdin: () => string | undefined;
}

function stdinIfPiped(force: boolean): string | undefined {
  try {
    const stat = fstatSync(0);
    if (force || stat.isFIFO() || stat.isFile()) return readFileSync(0, "utf8");
  } catch {
    // no standard input at all
  }
  return undefined;
}

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin: () => stdinIfPiped(false),
};

/** Control characters shown as spaces: the author's text cannot move the cursor or recolour the terminal. */
function printable(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out += c < 32 || (c >= 127 && c <= 159) ? " " : ch;
  }
  return out;
}

function renderText(outcome: ScoreOutcome): string {
  const { report, approval } = outcome;
  const c = report.consensus;
  const lines = [
    `${report.task}`,
    // What the author asks, first, in the author's words.
    ...(report.reading.ask ? [`Asks: “${printable(report.reading.ask)}”`] : []),
    // Numbers and fixed words only: nothing from the diff reaches the terminal.
    ...(report.reading.change ? [`Change: ${renderChangeText(report.reading.change)}`] : []),
    "",
    ...report.expertScores.map(
      (e) => `${e.icon}  ${e.expert.padEnd(20)} ${String(e.score).padStart(2)}/10  ${e.reasoning}`,
    ),
    "",
    `${c.approved ? "✅ Approved" : "❌ Not approved"}: average ${Number(c.avgScore.toFixed(2))}, lowest ${c.minScore}, highest ${c.maxScore}`,
    ...approval.conditions.map((cond) => `  ${cond.passed ? "✅" : "❌"} ${cond.summary}`),
    `Scorer: ${outcome.scorer}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** The request's fields as the CLI's options name them, for its error messages. */
const OPTION_OF: Record<string, string> = { task: "title", description: "description", diff: "diff" };

async function score(args: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      title: { type: "string", short: "t" },
      description: { type: "string", short: "d" },
      "description-file": { type: "string", short: "f" },
      diff: { type: "string" },
      json: { type: "boolean", default: false },
      "fail-on-reject": { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.title === undefined) throw new UsageError("--title is required.");
  if (values.description !== undefined && values["description-file"] !== undefined)
    throw new UsageError("Give --description or --description-file, not both.");
  if (values.diff === "-" && values["description-file"] === "-")
    throw new UsageError("Standard input can be the description or the diff, not both.");
  let diff: string | undefined;
  if (values.diff === "-") diff = io.readStdin() ?? stdinIfPiped(true) ?? "";
  else if (values.diff !== undefined) {
    try {
      diff = readFileSync(values.diff, "utf8");
    } catch {
      throw new UsageError(`--diff ${values.diff} cannot be read.`);
    }
  }
  let description = values.description;
  const file = values["description-file"];
  if (file === "-") description = stdinIfPiped(true) ?? "";
  else if (file !== undefined) {
    try {
      description = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`--description-file ${file} cannot be read.`);
    }
  } else if (description === undefined && values.diff !== "-") description = io.readStdin();

  // The core's request schema is the authority on a valid task, as for the API.
  const parsed = ScoreRequestSchema.safeParse({
    task: values.title,
    description: description ?? "",
    ...(diff === undefined ? {} : { diff }),
  });
  if (!parsed.success) {
    const reason = parsed.error.issues.map(
      (i) => `${OPTION_OF[String(i.path[0])] ?? "description"}: ${i.message.replace(/\.$/, "")}`,
    );
    throw new UsageError(`The task cannot be scored: ${reason.join("; ")}.`);
  }

  // Logs (the scorer choice, model retries) go to stderr, so stdout is only the report.
  const logger = pino({ level: env.LOG_LEVEL ?? "warn", redact: REDACTED_PATHS }, pino.destination(2));
  const policy = approvalPolicyFromEnv(env);
  const { scorer } = createScorer(scorerSettingsFromEnv(env), { logger });
  const outcome = await scoreTask(parsed.data, { scorer, policy });
  io.stdout(values.json ? `${JSON.stringify(outcome.report, null, 2)}\n` : renderText(outcome));
  return values["fail-on-reject"] && !outcome.report.consensus.approved ? EXIT.notApproved : EXIT.scored;
}

/** Runs one command and returns its exit code; errors are reported here, once, for a person. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: Io = defaultIo,
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      io.stdout(USAGE);
      return command === undefined ? EXIT.badInput : EXIT.scored;
    }
    if (command === "--version" || command === "-v") {
      io.stdout(`${packageVersion()}\n`);
      return EXIT.scored;
    }
    if (command === "score") {
      if (rest.includes("--help") || rest.includes("-h")) {
        io.stdout(USAGE);
        return EXIT.scored;
      }
      return await score(rest, env, io);
    }
    throw new UsageError(`Unknown command "${command}".`);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`task-scorer: ${(err as Error).message}\nRun task-scorer --help for usage.\n`);
      return EXIT.badInput;
    }
    if (isTaskScorerError(err)) {
      const bad = err.code === "invalid_request" || err.code === "invalid_config";
      io.stderr(`task-scorer: ${err.message}\n`);
      return bad ? EXIT.badInput : EXIT.scorerFailed;
    }
    io.stderr(`task-scorer: the scorer failed: ${(err as Error).message}\n`);
    return EXIT.scorerFailed;
  }
}

async function main(): Promise<void> {
  try {
    loadEnvFile();
  } catch (err) {
    process.stderr.write(`task-scorer: ${(err as Error).message}\n`);
    process.exit(EXIT.badInput);
  }
  const argv = process.argv.slice(2);
  if (argv[0] === "serve") {
    // The server's own entry point: same environment, logging and shutdown as npm start.
    await import("./main.js");
    return;
  }
  process.exitCode = await runCli(argv);
}

function isEntryPoint(): boolean {
  try {
    return realpathSync(process.argv[1] ?? "") === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

// Run only as a program (the bin, through its symlink; node build/src/cli.js), not when imported by tests.
if (isEntryPoint()) void main();
