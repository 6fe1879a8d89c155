import { needsHuman, personaScores } from "../core/needs-human.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import type { TaskRecord } from "./backlog-store.js";

export interface IssueFacts {
  number: number;
  title: string;
  url: string;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
}

/** A report as the backlog keeps it: the board's columns, and the report itself for the API. */
export function taskRecord(
  repository: string,
  issue: IssueFacts,
  report: ScoreReport,
  contentHash: string,
): TaskRecord {
  const date = (s: string | undefined) => (s ? new Date(s) : undefined);
  return {
    repository,
    number: issue.number,
    title: issue.title,
    url: issue.url,
    score: report.consensus.avgScore,
    approved: report.consensus.approved,
    needsHuman: needsHuman(report),
    kind: report.reading.kind,
    personas: personaScores(report),
    report,
    contentHash,
    createdAt: date(issue.createdAt),
    updatedAt: date(issue.updatedAt),
  };
}
