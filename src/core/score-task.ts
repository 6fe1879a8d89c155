import {
  DEFAULT_APPROVAL_POLICY,
  computeStats,
  evaluateApproval,
  isApproved,
  type ApprovalPolicy,
  type ApprovalResult,
} from "./approval.js";
import { ScorerFailedError } from "./errors.js";
import { PERSONAS } from "./personas.js";
import { SCORE_MAX, SCORE_MIN, type ScoreReport } from "./score-report.schema.js";
import type { PersonaVerdict, ScoreOptions, Scorer } from "./scorer.js";
import type { TaskInput } from "./task-request.schema.js";
import { readingOf } from "./offline/reading-memo.js";
import { calibrationUsed, type RepositoryCalibration } from "./offline/calibration.js";
import { readReading } from "./offline/read-reading.js";
import { isoTimestamp } from "./iso-timestamp.js";
import { shared } from "./shared-json.js";
import { changeStatements, type ChangeStatements } from "./change/change-statements.js";
import type { LinkedReports } from "./change/linked-issues.js";
import { diffSource, readChangeSource, type ChangeSource } from "./change/pull-change.js";
import type { Reading } from "./reading.schema.js";

export interface ScoreTaskDeps {
  scorer: Scorer;
  /** Injected so reports are reproducible in tests. */
  clock?: () => Date;
  policy?: ApprovalPolicy;
  /** What was learned from the task's repository's own closed issues, if anything (see ScoreOptions). */
  calibration?: RepositoryCalibration | undefined;
  /**
   * A pull request's change as the App or the Action listed it from GitHub (a `diff` in the input wins). It is
   * read after the scorer, never passed to it: the scorer's caches key on the text alone, so new commits get a
   * fresh reading of the change beside the text's cached verdicts.
   */
  change?: ChangeSource | undefined;
  /**
   * The reports of the issues the pull request closes, where the caller has them (the App's backlog, its own
   * repository only): the Product Manager's sentence about the change gives each one's score and verdict.
   */
  linked?: LinkedReports | undefined;
}

export interface ScoreOutcome {
  /** Exactly the public report shape (REST body, Action `report` output). */
  readonly report: ScoreReport;
  /** Which approval conditions held: for comments and summaries, not part of the REST body. */
  readonly approval: ApprovalResult;
  readonly verdicts: readonly PersonaVerdict[];
  readonly scorer: string;
}

/** Put the scorer's verdicts in the contract's order and refuse anything that is not exactly five valid ones. */
export function orderVerdicts(verdicts: readonly PersonaVerdict[], scorerName: string): PersonaVerdict[] {
  return PERSONAS.map((persona) => {
    const matching = verdicts.filter((v) => v.persona === persona.id);
    if (matching.length !== 1) {
      throw new ScorerFailedError(
        `The ${scorerName} scorer returned ${matching.length === 0 ? "no" : "more than one"} verdict for the ${persona.expert}; no report was made.`,
        { persona: persona.expert },
      );
    }
    const verdict = matching[0]!;
    // PersonaScoreSchema's rule, checked directly: this runs five times per report.
    const score = verdict.score;
    if (!(Number.isInteger(score) && score >= SCORE_MIN && score <= SCORE_MAX)) {
      throw new ScorerFailedError(
        `The ${scorerName} scorer gave the ${persona.expert} a score outside the integer range 1-10; no report was made.`,
        { persona: persona.expert },
      );
    }
    return verdict;
  });
}

export { readingOf };

/**
 * A report with its approval. The approval's sentences ("average 6.4 is below 7") are for comments, summaries
 * and the CLI; the REST body needs only `approved`, so they are written the first time someone reads them
 * (measured: a few µs of every REST request's CPU, on a path whose whole budget is tens of µs).
 */
class BuiltReport {
  private approvalMade: ApprovalResult | undefined;

  constructor(
    readonly report: ScoreReport,
    readonly scores: readonly number[],
    readonly policy: ApprovalPolicy,
  ) {}

  get approval(): ApprovalResult {
    return (this.approvalMade ??= evaluateApproval(this.scores, this.policy));
  }
}

/**
 * The persona scores of a report, made once per set of verdicts: a memo's verdicts come back as the same array,
 * and their scores as the same frozen, shared array (see shared-json.ts), whose JSON is then made only once.
 */
const expertScoresMade = new WeakMap<readonly PersonaVerdict[], ScoreReport["expertScores"]>();

function expertScoresOf(verdicts: readonly PersonaVerdict[]): ScoreReport["expertScores"] {
  let made = expertScoresMade.get(verdicts);
  if (!made) {
    made = shared(
      verdicts.map((v, i) => {
        const persona = PERSONAS[i]!;
        return { expert: persona.expert, icon: persona.icon, score: v.score, reasoning: v.reasoning };
      }),
    );
    expertScoresMade.set(verdicts, made);
  }
  return made;
}

/** The scorer's verdicts in the contract's order, checked once per array the scorer returns. */
const ordered = new WeakMap<readonly PersonaVerdict[], PersonaVerdict[]>();

function orderedOnce(raw: readonly PersonaVerdict[], scorerName: string): PersonaVerdict[] {
  let verdicts = ordered.get(raw);
  if (!verdicts) {
    verdicts = orderVerdicts(raw, scorerName);
    ordered.set(raw, verdicts);
  }
  return verdicts;
}

/**
 * The reading with `change` when the task came with one: a diff (REST `diff`, the CLI's `--diff`) or the files
 * the App or the Action listed from GitHub. The text's reading is shared between reports (reading-memo), so the
 * change goes on a copy; without a change it is the shared reading itself.
 */
function withChange(reading: Reading, change: Reading["change"]): Reading {
  return change === undefined ? reading : { ...reading, change };
}

/**
 * Each persona's reasoning with its one sentence about the change, where it has one (change-statements.ts):
 * after the scorer's own words, so any scorer's reasoning reads the same change the same way. A new array: the
 * verdicts' shared one is left as it is.
 */
function withStatements(
  scores: ScoreReport["expertScores"],
  statements: ChangeStatements,
): ScoreReport["expertScores"] {
  return scores.map((e, i) => {
    const sentence = statements[PERSONAS[i]!.id];
    if (!sentence) return e;
    return { ...e, reasoning: e.reasoning.trim() === "" ? sentence : `${e.reasoning.trimEnd()} ${sentence}` };
  });
}

export function buildReport(
  input: TaskInput,
  verdicts: readonly PersonaVerdict[],
  now: Date,
  policy: ApprovalPolicy = DEFAULT_APPROVAL_POLICY,
  calibration?: RepositoryCalibration,
  change?: ChangeSource,
  linked?: LinkedReports,
): BuiltReport {
  const source = input.diff !== undefined ? diffSource(input.diff) : change;
  const read = source === undefined ? undefined : readChangeSource(source);
  const expertScores = expertScoresOf(verdicts);
  const scores = verdicts.map((v) => v.score);
  const stats = computeStats(scores);
  const report: ScoreReport = {
    task: input.task,
    description: input.description,
    // Field by field, not `{ ...stats }`: V8 copies that spread on a slow path here (its average is a double),
    // measured at about 6 µs of every report, most of a one-word REST request's own cost.
    consensus: {
      avgScore: stats.avgScore,
      minScore: stats.minScore,
      maxScore: stats.maxScore,
      approved: isApproved(stats, scores, policy),
      timestamp: isoTimestamp(now),
    },
    expertScores: read
      ? withStatements(expertScores, changeStatements(read, input.description, linked))
      : expertScores,
    // The same reader under every scorer: it costs microseconds and needs no model.
    reading: withChange(
      calibrationUsed(calibration)
        ? readReading(input.task, input.description, undefined, undefined, calibration)
        : readingOf(input.task, input.description),
      read?.reading,
    ),
  };
  return new BuiltReport(report, scores, policy);
}

/** A score with its report; `approval` is made when first read (see BuiltReport). */
class Outcome extends BuiltReport implements ScoreOutcome {
  constructor(
    built: BuiltReport,
    readonly verdicts: readonly PersonaVerdict[],
    readonly scorer: string,
  ) {
    super(built.report, built.scores, built.policy);
  }
}

/** The one operation every adapter calls: score a validated task and assemble the consensus report. */
export async function scoreTask(
  input: TaskInput,
  deps: ScoreTaskDeps,
  options?: ScoreOptions,
): Promise<ScoreOutcome> {
  const raw = await deps.scorer.score(
    input,
    deps.calibration ? { ...options, calibration: deps.calibration } : options,
  );
  const verdicts = orderedOnce(raw, deps.scorer.name);
  const now = (deps.clock ?? (() => new Date()))();
  return new Outcome(
    buildReport(input, verdicts, now, deps.policy, deps.calibration, deps.change, deps.linked),
    verdicts,
    deps.scorer.name,
  );
}
