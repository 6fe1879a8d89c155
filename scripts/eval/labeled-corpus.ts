import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** One labeled issue. `kind`, `outcome` and `evidence` were written by the collectors: a judge never sees them. */
export interface LabeledIssue {
  id: string;
  repo: string;
  kind: "feature" | "bug" | "chore" | "docs" | "question" | "spam";
  task: string;
  description: string | null;
  outcome: "implemented" | "rejected" | "duplicate" | "unknown";
}

const here = dirname(fileURLToPath(import.meta.url));
/** The labeled corpus sits beside the clone (CI has it); it is never copied into the project. */
export const LABELED_PATH = resolve(here, "../../../shared/corpus/labeled-issues.jsonl");

export function loadLabeled(path = LABELED_PATH): LabeledIssue[] | undefined {
  if (!existsSync(path)) return undefined;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabeledIssue);
}

/** The issues with a decision: implemented (positive) or rejected (negative). */
export const decided = (rows: readonly LabeledIssue[]) =>
  rows.filter((r) => r.outcome === "implemented" || r.outcome === "rejected");
