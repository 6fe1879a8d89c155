import type { RepositoryCalibration } from "../core/offline/calibration.js";
import type { ModelKind } from "../core/offline/kind-model.js";
import { TASK_MAX_CHARS } from "../core/task-request.schema.js";

// What learning reads and decides, and its settings: shared by the kind and the acceptance fits.

/** One closed issue as learning reads it. */
export interface ClosedIssue {
  number: number;
  title: string;
  body: string;
  labels: readonly string[];
  /** GitHub's `state_reason`: "completed", "not_planned", "duplicate", "reopened" or null. */
  stateReason: string | null;
}

export interface LearningOptions {
  /** Labelled closed issues needed before a kind adjustment is tried (and at least two kinds with 5 each). */
  minKindExamples: number;
  /** Decided closed issues (completed or not planned) needed before an acceptance adjustment is tried. */
  minDecided: number;
  /** L2 strength pulling the kind adjustment back to the shipped model (per update, as the shipped fit). */
  kindLambda: number;
  kindEpochs: number;
  kindRate: number;
  /** L2 strength on the acceptance adjustment's weight changes (the intercept is barely held). */
  acceptanceLambda: number;
  /**
   * Folds of the closed issues for deciding whether an adjustment beats the shipped model: each fold is held
   * out in turn (an adjustment fitted on the others reads it), and the pooled held-out readings are compared.
   */
  folds: number;
}

/** Chosen by cross-validation on the NLBSE'24 training split (`npm run eval:learning -- --choose`). */
export const LEARNING: LearningOptions = {
  minKindExamples: 30,
  minDecided: 30,
  kindLambda: 1e-3,
  kindEpochs: 12,
  kindRate: 0.5,
  acceptanceLambda: 10,
  folds: 5,
};

/**
 * How much of each closed issue learning reads (issue 33: 1,000 bodies of 65,000 characters took 16 s). The
 * title to the scorer's own bound (GitHub's limit for a title); the body to 16 KiB, which holds the whole of
 * nearly every real issue (and far more than the 3,000 characters of prose the kind model reads), while a
 * pasted log past it no longer costs a reading of the whole of it. In UTF-16 code units.
 */
export const LEARNING_READ = { titleChars: TASK_MAX_CHARS, bodyChars: 16_384 } as const;

/** What one learning run found: the calibration to use, and the figures behind each decision. */
export interface LearningResult {
  calibration: RepositoryCalibration;
  /** The repository's own label name for each kind (the one its closed issues carry most), for kind labels. */
  labelNames: Partial<Record<ModelKind, string>>;
  labelled: number;
  decided: number;
  kind: AdjustmentDecision;
  acceptance: AdjustmentDecision;
}

export interface AdjustmentDecision {
  kept: boolean;
  /** Why not, in words a maintainer reads ("12 labelled closed issues; 30 needed"). */
  reason: string;
  /** Held-out figure of the shipped model and of the adjustment (macro-F1 for kind, AUC for acceptance). */
  shipped?: number;
  adjusted?: number;
}

export interface KindExample {
  title: string;
  body: string;
  label: ModelKind;
}
