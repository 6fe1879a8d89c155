/**
 * Reading `.github/task-scorer.yml` for a job: fetched with a size cap, parsed with the schema, and its problems
 * located (line and column) for the log and for the maintainers' `/score` reply, never for the report comment.
 */
import type { Context } from "probot";
import { LineCounter, parseDocument, isMap, isScalar } from "yaml";
import { ConfigTooLargeError, limitConfigReads, withConfigBudget } from "./config-size-limit.js";
import {
  CONFIG_MAX_BYTES,
  CONFIG_MAX_FILES,
  CONFIG_MAX_TOTAL_BYTES,
  REPO_CONFIG_FILE,
  failClosedConfig,
  formatDiagnostic,
  parseRepoConfig,
  type ConfigDiagnostic,
  type ParsedRepoConfig,
} from "../repo-config/repo-config.schema.js";

export type Log = Context["log"];

/** The YAML parser's position of a syntax error (1-based), from the error Probot wraps. */
function yamlErrorPosition(error: unknown): { line: number; column: number; problem: string } | undefined {
  const cause = (error as { cause?: unknown })?.cause as
    { linePos?: { line: number; col: number }[]; message?: string } | undefined;
  const pos = cause?.linePos?.[0];
  if (!pos) return undefined;
  // The parser's message is "<what> at line L, column C:" followed by an excerpt; keep the what.
  const problem = (cause.message ?? "invalid YAML")
    .split("\n")[0]!
    .replace(/ at line \d+, column \d+:?$/, "");
  return { line: pos.line, column: pos.col, problem };
}

/**
 * Where each key-level problem sits in the repository's own file. Read only when there are problems
 * (rare); a key that came from an `_extends` base is not in this file and keeps no position.
 */
async function locateKeys(context: Context, diagnostics: ConfigDiagnostic[]): Promise<void> {
  if (!diagnostics.some((d) => d.key)) return;
  try {
    const { data } = await context.octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...context.repo(),
      path: `.github/${REPO_CONFIG_FILE}`,
      mediaType: { format: "raw" },
    });
    if (typeof data !== "string") return;
    const lineCounter = new LineCounter();
    const doc = parseDocument(data, { lineCounter });
    if (!isMap(doc.contents)) return;
    for (const d of diagnostics) {
      const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === d.key);
      const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (offset === undefined) continue;
      const { line, col } = lineCounter.linePos(offset);
      d.line = line;
      d.column = col;
    }
  } catch (error) {
    context.log.debug({ err: error }, "could not locate config problems in the file");
  }
}

/**
 * The repository's config, with every problem logged at warn (with line and column). A file that
 * cannot be read at all might have said `enabled: false`, so the App stays quiet (fails closed).
 * No problem text ever carries a URL: Probot's own messages (which name the API URL) stay out.
 */
export async function loadConfig(context: Context, log: Log): Promise<ParsedRepoConfig> {
  let parsed: ParsedRepoConfig;
  limitConfigReads(context.octokit, CONFIG_MAX_BYTES);
  try {
    // Every file the configuration draws on (`_extends`, the organisation's `.github`) is capped, and so
    // is the chain: its length and its total size.
    const raw = await withConfigBudget(
      { ...context.repo(), path: `.github/${REPO_CONFIG_FILE}` },
      { maxFiles: CONFIG_MAX_FILES, maxTotalBytes: CONFIG_MAX_TOTAL_BYTES },
      () => context.config(REPO_CONFIG_FILE),
    );
    parsed = parseRepoConfig(raw);
    await locateKeys(context, parsed.diagnostics);
  } catch (error) {
    const pos = yamlErrorPosition(error);
    const status = (error as { status?: unknown })?.status;
    const diagnostic: ConfigDiagnostic =
      error instanceof ConfigTooLargeError
        ? { message: `${error.message}; the App stays off until ${error.remedy}` }
        : pos
          ? {
              message: `is not valid YAML (${pos.problem}); the App stays off until it is fixed`,
              line: pos.line,
              column: pos.column,
            }
          : {
              message: `could not be read${typeof status === "number" ? ` (GitHub answered ${status})` : ""}; the App stays off until it can be`,
            };
    parsed = { config: failClosedConfig(), diagnostics: [diagnostic], failedClosed: true };
  }
  for (const d of parsed.diagnostics) {
    log.warn(
      { file: `.github/${REPO_CONFIG_FILE}`, key: d.key, line: d.line, column: d.column, problem: d.message },
      "repository config problem",
    );
  }
  return parsed;
}

/**
 * Problems as a plain-text block: nothing in it is rendered (no links, no @mentions), and the
 * file's own words (a key name) cannot close the block early.
 */
export function diagnosticLines(diagnostics: readonly ConfigDiagnostic[]): string[] {
  const text = diagnostics.map((d) => formatDiagnostic(d).replace(/`{3,}/g, "'''"));
  return ["```text", ...text, "```"];
}
