import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface CorpusIssue {
  id: string;
  repo: string;
  number: number;
  kind: string;
  task: string;
  description: string | null;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The shared corpus lives beside the clone (CI has it); a user's clone may not. */
export const CORPUS_PATH = resolve(here, "../../../shared/corpus/real-issues.jsonl");

export function loadCorpus(): CorpusIssue[] | undefined {
  if (!existsSync(CORPUS_PATH)) return undefined;
  return readFileSync(CORPUS_PATH, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusIssue);
}

/** Why the corpus suites cannot run here (a user's clone), or undefined when they can. */
export const corpusAbsent = (): string | undefined =>
  existsSync(CORPUS_PATH) ? undefined : `${CORPUS_PATH} not found (it sits beside the clone in CI).`;
