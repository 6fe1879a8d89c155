/**
 * The job runner: what one queued job for one issue or pull request does, as named steps over one event:
 * authorize → load config → decide → meter → score → persist → publish (each in src/app/job/). Runs in the queue,
 * never in the webhook request; `signal` aborts at the job's time limit.
 */
import type { Context } from "probot";
import { isTaskScorerError } from "../core/errors.js";
import type { SimilarMention } from "../core/render-comment.js";
import type { ScoreOutcome } from "../core/score-task.js";
import type { ConfigDiagnostic, RepoConfig } from "../repo-config/repo-config.schema.js";
import { askBackfill } from "./commands/backlog.js";
import { reply } from "./commands/command.js";
import { helpText } from "./commands/help.js";
import { askLearning } from "./commands/learn.js";
import { subjectKey } from "./delivery-handler.js";
import { eventItem, issueState, repositoryName } from "./event.js";
import { askedAnything, authorize, scoreCommanded, type Asked } from "./job/authorize.js";
import { decide, type Decision } from "./job/decide.js";
import { charge, meter, release } from "./job/meter.js";
import { saveToBacklog } from "./job/persist.js";
import { lastVerdictsOf } from "./job/last-verdicts.js";
import { readLinkedReports } from "./job/linked-reports.js";
import { readPullChange } from "./job/read-change.js";
import {
  publishAllowanceNote,
  publishScored,
  publishScoringFailed,
  tellMaintainer,
  type JobRun,
} from "./job/publish.js";
import { scoreText } from "./job/score.js";
import { outputProblems } from "./outputs.js";
import { loadConfig } from "./repo-config-loader.js";
import { hashText } from "./task-text.js";
import type { AppDeps, Subject, Trigger } from "./types.js";

/**
 * Time kept back from a job's limit for the GitHub writes after scoring (the comment, the labels,
 * or the note that scoring failed), so a report that hits its deadline can still say so.
 */
export const JOB_WRITE_RESERVE_MS = 10_000;

/** The scoring deadline inside a job: the job limit less the write reserve (at least half the limit). */
export function reportDeadlineForJob(jobTimeoutMs: number): number {
  return Math.max(jobTimeoutMs / 2, jobTimeoutMs - JOB_WRITE_RESERVE_MS);
}

/**
 * One job for one subject: answer commands (a receipt or a refusal, then the replies), then score when any
 * reason holds under the repository's config, and publish.
 */
export async function runJob(
  context: Context,
  deps: AppDeps,
  triggers: readonly Trigger[],
  subject: Subject,
  signal: AbortSignal,
): Promise<void> {
  const started = Date.now();
  const log = context.log.child({ subject: subjectKey(subject.ref) });
  const asked = await authorize(context, subject, triggers, log);
  if (!askedAnything(asked)) return;
  const run: JobRun = {
    context,
    deps,
    subject,
    item: eventItem(context),
    repository: repositoryName(context),
    log,
  };

  const loaded = await loadConfig(context, log);
  const said = { score: scoreCommanded(asked), help: asked.commands.has("help") };
  // What an output met earlier (a board it cannot reach) is told to maintainers with the file's problems.
  // Read only when a maintainer's command will show them: an ordinary event costs no lookup.
  const diagnostics = [
    ...loaded.diagnostics,
    ...(said.help || said.score ? await outputProblems(run.repository, deps.outputProblems) : []),
  ];
  await answerCommands(run, asked, { ...loaded, diagnostics });

  const decision = decide(loaded.config, asked.reasons, subject);
  const met = await scoreAndPublish(run, loaded.config, decision, signal, started);
  for (const d of met)
    if (!diagnostics.some((x) => x.key === d.key && x.message === d.message)) diagnostics.push(d);
  await tellMaintainer(run, said, diagnostics);
}

/** The replies to `/score help`, `/score backlog` and `/score learn`, in that order. */
async function answerCommands(
  run: JobRun,
  asked: Asked,
  config: Parameters<typeof helpText>[0],
): Promise<void> {
  const { context, subject, deps } = run;
  if (asked.commands.has("help")) await reply(context, subject.ref, helpText(config));
  if (asked.commands.has("backlog"))
    await reply(context, subject.ref, await askBackfill(context, deps.backlog, subject));
  if (asked.commands.has("learn"))
    await reply(context, subject.ref, await askLearning(context, deps.backlog, subject));
}

/** Decide → meter → score → persist → publish. Returns the problems the outputs met. */
async function scoreAndPublish(
  run: JobRun,
  config: RepoConfig,
  decision: Decision,
  signal: AbortSignal,
  started: number,
): Promise<ConfigDiagnostic[]> {
  const { deps, subject, log } = run;
  const { outputs } = decision;
  if (!decision.score) {
    if (decision.why.length > 0) log.info({ reasons: decision.why }, "not scored");
    return [];
  }
  const account = subject.ref.owner;
  const metered = await meter(deps.metering, account, decision.pushOnly);
  if (!metered.allowed) return publishAllowanceNote(run, outputs);

  // Listed after the allowance is checked (up to 30 requests), before the deadline's clock for the score.
  const change = await readPullChange(run, signal);
  // The issues it closes, with their reports where the backlog has them; only a change's reading names them.
  const linked = change && (await readLinkedReports(run, deps.backlog?.store));
  const textKey = `${subjectKey(subject.ref)} ${hashText(subject.title, subject.body)}`;
  // New commits change the change, not the text: the text's last verdicts here answer again (last-verdicts.ts).
  const scorer = lastVerdictsOf(deps.queue).scorer(deps.scorer, textKey, decision.pushOnly);
  let outcome: ScoreOutcome;
  try {
    outcome = await scoreText(
      { ...deps, scorer, calibrations: deps.backlog?.calibrations },
      config,
      run.repository,
      subject,
      { signal, timeoutMs: reportDeadlineForJob(deps.queue.jobTimeoutMs) - (Date.now() - started) },
      change,
      linked,
    );
  } catch (error) {
    await release(deps.metering, metered);
    if (!isTaskScorerError(error)) throw error;
    return publishScoringFailed(run, outputs, error);
  }
  if (!(await charge(deps.metering, metered, account, run.context.id, outcome.report)))
    return publishAllowanceNote(run, outputs);

  // The board lists open issues: an edit to a closed one updates nothing there.
  if (deps.backlog && !subject.isPullRequest && issueState(run.context) !== "closed")
    await saveToBacklog(
      deps.backlog.store,
      run.repository,
      {
        number: subject.ref.issue_number,
        title: subject.title,
        url: run.item?.url ?? "",
        createdAt: run.item?.createdAt,
        updatedAt: run.item?.updatedAt,
      },
      outcome.report,
      hashText(subject.title, subject.body),
    );
  return publishScored(run, outputs, config, outcome, await earlierLikeThis(run));
}

/**
 * Earlier issues of the repository like this one (issue 32), for the comment's "Possibly the same as" or "Related"
 * line: issues only, from the App's own index (which the backlog fills), never across repositories. A failure
 * costs the line, not the report.
 */
async function earlierLikeThis(run: JobRun): Promise<SimilarMention[] | undefined> {
  const { deps, subject } = run;
  if (!deps.backlog || subject.isPullRequest) return undefined;
  try {
    return await deps.backlog.store.similar.similarTo(
      run.repository,
      { title: subject.title, body: subject.body, number: subject.ref.issue_number },
      3,
      { earlierOnly: true },
    );
  } catch (error) {
    run.log.warn({ err: error }, "similar issues not read: the comment goes without its line");
    return undefined;
  }
}
