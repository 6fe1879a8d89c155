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

const issue = z.looseObject({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  labels,
});
const common = { action: z.string(), repository, installation, sender };

const EVENT_SCHEMAS: Record<string, z.ZodType> = {
  issues: z.looseObject({ ...common, issue, label: label.optional() }),
  pull_request: z.looseObject({
    ...common,
    pull_request: issue.extend({ draft: z.boolean().optional() }),
    label: label.optional(),
  }),
  issue_comment: z.looseObject({
    ...common,
    issue: issue.extend({ pull_request: z.unknown().optional() }),
    comment: z.looseObject({ id: z.number().int(), body: text, user: login.nullable().optional() }),
  }),
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
    changes: z
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
      .optional(),
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
