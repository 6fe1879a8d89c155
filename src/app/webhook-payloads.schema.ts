import { z } from "zod";

/**
 * The parts of each handled event's payload that the App reads, checked at the webhook before a
 * delivery is stored or handled. A signed payload of another shape (a misconfigured proxy, a test
 * tool, a forged secret) gets 400 `invalid_request` instead of failing deep in a handler with a 500.
 * Objects are loose: GitHub adds fields, and those are kept.
 */
const login = z.looseObject({ login: z.string() });
const repository = z.looseObject({
  id: z.number().int().optional(),
  name: z.string(),
  full_name: z.string(),
  owner: login,
  private: z.boolean().optional(),
});
const installation = z.looseObject({ id: z.number().int() }).optional();
const sender = z.looseObject({ login: z.string(), type: z.string().optional() });
const label = z.looseObject({ name: z.string() });
const labels = z.array(z.union([label, z.string()])).optional();
const text = z.string().nullable().optional();

// What a job reads besides the text (the backlog's record, the board's node, the check run's commit): optional,
// as test tools and older deliveries may leave them out.
const issue = z.looseObject({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  labels,
  state: z.string().optional(),
  node_id: z.string().optional(),
  html_url: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
const common = { action: z.string(), repository, installation, sender };

export const IssuesPayloadSchema = z.looseObject({ ...common, issue, label: label.optional() });
export const PullRequestPayloadSchema = z.looseObject({
  ...common,
  pull_request: issue.extend({
    draft: z.boolean().optional(),
    head: z.looseObject({ sha: z.string().optional() }).optional(),
    /** How many files the change has (GitHub lists at most 3,000); an odd value is read as unknown. */
    changed_files: z.number().int().min(0).optional().catch(undefined),
  }),
  label: label.optional(),
  /** `synchronize`: the previous head commit. */
  before: z.string().optional(),
});
export const IssueCommentPayloadSchema = z.looseObject({
  ...common,
  issue: issue.extend({ pull_request: z.unknown().optional() }),
  comment: z.looseObject({ id: z.number().int(), body: text, user: login.nullable().optional() }),
});
const repositoryChanges = z
  .looseObject({
    repository: z.looseObject({ name: z.looseObject({ from: z.string() }).optional() }).optional(),
    owner: z
      .looseObject({
        from: z
          .looseObject({
            user: login.optional(),
            organization: login.optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .optional();

/**
 * The repository any event carries, read for the backlog (issue 33) on every event: only what that needs, so an
 * event the App does not otherwise handle is never refused for the rest of its shape.
 */
export const EventRepositorySchema = z.looseObject({
  action: z.string().optional(),
  repository: z
    .looseObject({ id: z.number().int().optional(), full_name: z.string(), private: z.boolean().optional() })
    .optional(),
  installation: z.looseObject({ id: z.number().int().optional() }).optional(),
  // Other events' `changes` (an issue's title, a member's permission) must not hide the repository.
  changes: repositoryChanges.catch(undefined),
});

export type IssuesPayload = z.output<typeof IssuesPayloadSchema>;
export type PullRequestPayload = z.output<typeof PullRequestPayloadSchema>;
export type IssueCommentPayload = z.output<typeof IssueCommentPayloadSchema>;

const EVENT_SCHEMAS: Record<string, z.ZodType> = {
  issues: IssuesPayloadSchema,
  pull_request: PullRequestPayloadSchema,
  issue_comment: IssueCommentPayloadSchema,
  // The backlog: repositories the App was installed on or given (a backfill each).
  installation: z.looseObject({
    action: z.string(),
    installation: z.looseObject({ id: z.number().int() }),
    repositories: z
      .array(z.looseObject({ full_name: z.string(), private: z.boolean().optional() }))
      .optional(),
  }),
  installation_repositories: z.looseObject({
    action: z.string(),
    installation: z.looseObject({ id: z.number().int() }),
    repositories_added: z.array(z.looseObject({ full_name: z.string(), private: z.boolean().optional() })),
  }),
  // The backlog follows its repositories: made private or public, renamed, transferred, deleted (issue 33).
  repository: z.looseObject({
    action: z.string(),
    repository,
    installation,
    changes: repositoryChanges,
  }),
  marketplace_purchase: z.looseObject({
    action: z.string(),
    effective_date: z.string().optional(),
    marketplace_purchase: z.looseObject({
      account: z.looseObject({ login: z.string() }),
      plan: z.looseObject({ name: z.string().optional(), price_model: z.string().optional() }).optional(),
    }),
  }),
};

/**
 * Undefined when the payload has the shape its event needs (or the App does not handle the event);
 * otherwise a sentence naming the first field that is wrong.
 */
export function payloadProblem(event: string, payload: unknown): string | undefined {
  const schema = EVENT_SCHEMAS[event];
  if (!schema) return undefined;
  const result = schema.safeParse(payload);
  if (result.success) return undefined;
  const first = result.error.issues[0];
  const where = first?.path.length ? first.path.join(".") : "(payload)";
  return `The ${event} payload does not have the shape GitHub sends: ${where} ${first?.message ?? "is invalid"}.`;
}
