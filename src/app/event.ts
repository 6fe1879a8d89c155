/**
 * One webhook event as the App's job reads it: its payload parsed once by the intake's own schemas
 * (webhook-payloads.schema.ts) rather than cast, and the few things the steps ask of it.
 */
import type { Context } from "probot";
import {
  EventRepositorySchema,
  IssueCommentPayloadSchema,
  IssuesPayloadSchema,
  PullRequestPayloadSchema,
} from "./webhook-payloads.schema.js";
import { labelsOf } from "./skip-rules.js";
import type { Subject } from "./types.js";

/** The issue or pull request of an `issues`, `pull_request` or `issue_comment` event, with what jobs read of it. */
export interface EventItem {
  subject: Subject;
  state: string | undefined;
  nodeId: string | undefined;
  url: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  /** A pull request's head commit, and the one before a `synchronize`. */
  headSha: string | undefined;
  before: string | undefined;
  /** A pull request's `changed_files`, when the event carries it (to tell a file list GitHub cut). */
  changedFiles?: number | undefined;
}

/** Parsed once per payload (a job reads it several times; the payload object is the event's own). */
const items = new WeakMap<object, EventItem | undefined>();

function readItem(context: Context): EventItem | undefined {
  const ref = () => context.issue();
  const base = (
    item: { title: string; body?: string | null | undefined; labels?: unknown },
    kind: { isPullRequest: boolean; draft?: boolean | undefined },
  ): Subject => ({
    ref: ref(),
    title: item.title,
    body: item.body ?? "",
    isPullRequest: kind.isPullRequest,
    draft: Boolean(kind.draft),
    labels: labelsOf(item),
  });
  const details = (item: {
    state?: string | undefined;
    node_id?: string | undefined;
    html_url?: string | undefined;
    created_at?: string | undefined;
    updated_at?: string | undefined;
  }) => ({
    state: item.state,
    nodeId: item.node_id,
    url: item.html_url,
    createdAt: item.created_at,
    updatedAt: item.updated_at,
  });
  switch (context.name) {
    case "issues": {
      const { issue } = IssuesPayloadSchema.parse(context.payload);
      const subject = base(issue, { isPullRequest: false });
      return { subject, ...details(issue), headSha: undefined, before: undefined };
    }
    case "pull_request": {
      const payload = PullRequestPayloadSchema.parse(context.payload);
      const pr = payload.pull_request;
      const subject = base(pr, { isPullRequest: true, draft: pr.draft });
      return {
        subject,
        ...details(pr),
        headSha: pr.head?.sha,
        before: payload.before,
        changedFiles: pr.changed_files,
      };
    }
    case "issue_comment": {
      const { issue } = IssueCommentPayloadSchema.parse(context.payload);
      const subject = base(issue, { isPullRequest: Boolean(issue.pull_request) });
      return { subject, ...details(issue), headSha: undefined, before: undefined };
    }
    default:
      return undefined;
  }
}

/** The event's issue or pull request; undefined for an event that has none. */
export function eventItem(context: Context): EventItem | undefined {
  const payload = context.payload as object;
  if (!items.has(payload)) items.set(payload, readItem(context));
  return items.get(payload);
}

/** The subject of an event that has one (the handlers subscribe only to those). */
export function subjectOf(context: Context): Subject {
  const item = eventItem(context);
  if (!item) throw new Error(`a ${context.name} event has no issue or pull request`);
  return item.subject;
}

/** The issue's state (`open`, `closed`), when the event carries one. */
export function issueState(context: Context): string | undefined {
  return eventItem(context)?.state;
}

/** The repository, installation and changes any event carries (see EventRepositorySchema). */
export function eventRepository(context: Context) {
  const parsed = EventRepositorySchema.safeParse(context.payload);
  return parsed.success ? parsed.data : {};
}

/** "owner/name" of the event's repository, as GitHub spells it. */
export function repositoryName(context: Context): string {
  const { owner, repo } = context.repo();
  return eventRepository(context).repository?.full_name ?? `${owner}/${repo}`;
}

/** The installation the event came through, and whether its repository is private (for the backlog). */
export function installationOf(context: Context): {
  installationId: number | undefined;
  private: boolean | undefined;
} {
  const { repository, installation } = eventRepository(context);
  return { installationId: installation?.id, private: repository?.private };
}
