/**
 * The shapes the App's handlers, job steps and commands share. Kept apart from the files that use them so
 * that none of those imports another only for a type (the import circles issue 36 removed).
 */
import type { AppMetering } from "../accounts/app-metering.js";
import type { BackfillRunner } from "../backlog/backfill-runner.js";
import type { BacklogStore } from "../backlog/backlog-store.js";
import type { ApprovalPolicy } from "../core/approval.js";
import type { Scorer } from "../core/scorer.js";
import type { LearnedLabelNames } from "../github/kind-labels.js";
import type { IssueRef } from "../github/report-comment.js";
import type { CalibrationStore } from "../learning/calibration-store.js";
import type { JobQueue } from "./job-queue.js";
import type { OutputProblems } from "./output-problems.js";

export interface AppBacklog {
  store: BacklogStore;
  runner: Pick<BackfillRunner, "wake">;
  /** Where the repository's board is, for the reply to `/score backlog`. */
  boardUrl(repository: string): string;
  /** What was learned from each repository's closed issues (issue 18): new issues' reports use it too. */
  calibrations?: Pick<CalibrationStore, "get"> | undefined;
}

export interface AppDeps {
  scorer: Scorer;
  /** Shown in the comment footer: "offline", "openai gpt-4o-mini". */
  scorerDescription: string;
  policy: ApprovalPolicy;
  queue: JobQueue;
  clock?: () => Date;
  /** With a database: reports are counted per GitHub account against its plan (see accounts/). */
  metering?: AppMetering;
  /** With a database: the backlog (every open issue's latest report) and its silent backfill. */
  backlog?: AppBacklog;
  /** The repository's own kind label names, once learned (`output: [labels]`); optional. */
  learnedLabelNames?: LearnedLabelNames;
  /** Problems the outputs met, shared by a fleet with a database; this process's memory without one. */
  outputProblems?: OutputProblems | undefined;
}

/** The maintainers' commands: `/score`, `/score help`, `/score backlog`, `/score learn`. */
export type Command = "score" | "help" | "backlog" | "learn";

/** Why a job looks at a subject. A job can carry several (a newer event absorbs a pending one's). */
export type Trigger =
  | { kind: "issues"; action: "opened" | "reopened" | "edited" }
  | { kind: "pull-requests"; action: "opened" | "reopened" | "ready_for_review" | "edited" }
  | { kind: "label-added"; label: string }
  | { kind: "label-removed"; label: string }
  /** New commits on a pull request: its change is read again; the report comment and the check run follow it. */
  | { kind: "head-pushed" }
  | { kind: "command"; command: Command; commenter: string; commentId: number };

/** The issue or pull request a job is about, as its event showed it. */
export interface Subject {
  ref: IssueRef;
  title: string;
  body: string;
  isPullRequest: boolean;
  draft: boolean;
  labels: string[];
}
