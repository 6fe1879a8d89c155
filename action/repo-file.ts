/**
 * The repository's `.github/task-scorer.yml`, as the App reads it: fetched from the default branch through the
 * contents API with the workflow's token (no checkout needed, and a pull request cannot change what its own
 * run writes), parsed with the App's schema, and merged under the step's inputs (an input that is set wins).
 */
import { parse } from "yaml";
import {
  CONFIG_MAX_BYTES,
  REPO_CONFIG_FILE,
  formatDiagnostic,
  parseRepoConfig,
  type Output,
  type RepoConfig,
} from "../src/repo-config/repo-config.schema.js";
import { resolveOutputs, type ResolvedOutputs } from "../src/repo-config/resolve-outputs.js";
import { httpStatus, type GitHubRequest } from "../src/github/github-request.js";

export interface RepoFile {
  /** Undefined when the repository has no file (or it could not be read). */
  config: RepoConfig | undefined;
  /** Problems in the file, and why it could not be read, for `core.warning`. */
  warnings: string[];
}

const PATH = `.github/${REPO_CONFIG_FILE}`;

export async function readRepoFile(github: GitHubRequest, owner: string, repo: string): Promise<RepoFile> {
  let text: string;
  try {
    const { data } = await github.request("GET /repos/{owner}/{repo}/contents/{path}", {
      owner,
      repo,
      path: PATH,
      mediaType: { format: "raw" },
    });
    text = typeof data === "string" ? data : Buffer.from(data as ArrayBuffer).toString("utf8");
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404) return { config: undefined, warnings: [] };
    return {
      config: undefined,
      warnings: [
        `${PATH} could not be read (${status === undefined ? "GitHub could not be reached" : `GitHub answered ${status}`}); the step's inputs alone apply. ${status === 403 ? "Add `contents: read` to the workflow's permissions." : ""}`.trim(),
      ],
    };
  }
  if (Buffer.byteLength(text) > CONFIG_MAX_BYTES)
    return { config: undefined, warnings: [`${PATH} is over ${CONFIG_MAX_BYTES / 1024} KB; it is ignored.`] };
  let raw: unknown;
  try {
    raw = parse(text);
  } catch {
    return { config: undefined, warnings: [`${PATH} is not valid YAML; it is ignored.`] };
  }
  const parsed = parseRepoConfig(raw);
  const warnings = parsed.diagnostics.map(formatDiagnostic);
  if (raw && typeof raw === "object" && "_extends" in raw)
    warnings.push(
      `${PATH}: \`_extends\` is read by the GitHub App only; the Action uses this file's own keys.`,
    );
  return { config: parsed.config, warnings };
}

/** What the step's inputs set explicitly (empty inputs are "not set"). */
export interface ExplicitInputs {
  output: Output[] | undefined;
  comment: boolean | undefined;
  labels: { approved?: string | undefined; rejected?: string | undefined };
}

/**
 * The outputs in force. Inputs that are set win over the file; the file wins over the defaults. Without
 * `output` anywhere, the step does what it always did: the comment (unless `comment: false`) and the verdict
 * labels, plus the file's `needs-human` label when it names one.
 */
export function actionOutputs(inputs: ExplicitInputs, file: RepoConfig | undefined): ResolvedOutputs {
  const base = file ?? parseRepoConfig({}).config;
  const merged: RepoConfig = {
    ...base,
    output: inputs.output ?? base.output,
    comment: inputs.comment ?? base.comment,
    labels: {
      ...base.labels,
      approved: inputs.labels.approved ?? base.labels.approved,
      rejected: inputs.labels.rejected ?? base.labels.rejected,
    },
  };
  return resolveOutputs(merged);
}
