/** What a report cost; logged once per report and added to the scorer's running totals. */
export interface ReportStats {
  modelCalls: number;
  cacheHits: number;
  retries: number;
  repairs: number;
  promptTokens: number;
  completionTokens: number;
}

export function emptyStats(): ReportStats {
  return { modelCalls: 0, cacheHits: 0, retries: 0, repairs: 0, promptTokens: 0, completionTokens: 0 };
}

export function addStats(into: ReportStats, from: ReportStats): void {
  for (const k of Object.keys(into) as (keyof ReportStats)[]) into[k] += from[k];
}
