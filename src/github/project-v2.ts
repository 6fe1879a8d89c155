/**
 * `output: [project]`: add the issue or pull request to a Projects v2 board and set its number field
 * "Task score" (created when the board lacks it), through GraphQL. A board that cannot be reached is a
 * ProjectUnreachable: a problem for maintainers, never a failed job.
 */
import type { GitHubRequest } from "./github-request.js";
import { graphqlBaseUrl, httpStatus, isPermissionStatus } from "./github-request.js";

export const SCORE_FIELD = "Task score";

export interface ProjectRef {
  /** The host of the URL (github.com, or a GHE host). */
  host: string;
  scope: "organization" | "user";
  login: string;
  number: number;
}

const URL_SHAPE = /^https?:\/\/([^/\s]+)\/(orgs|users)\/([^/\s]+)\/projects\/(\d+)(?:[/?#].*)?$/;

/** `https://github.com/orgs/ORG/projects/N` or `.../users/USER/projects/N` (GHE hosts too). */
export function parseProjectUrl(url: string): ProjectRef | undefined {
  const m = URL_SHAPE.exec(url.trim());
  if (!m) return undefined;
  return {
    host: m[1]!,
    scope: m[2] === "orgs" ? "organization" : "user",
    login: decodeURIComponent(m[3]!),
    number: Number(m[4]),
  };
}

/** How a board is named to maintainers: never its URL (diagnostics carry no links). */
export function describeProject(p: ProjectRef): string {
  return `${p.scope === "organization" ? "organisation" : "user"} ${p.login}'s project ${p.number}`;
}

/** The board could not be reached or written; `message` is for maintainers. */
export class ProjectUnreachable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProjectUnreachable";
  }
}

interface GraphqlError {
  type?: string;
  message?: string;
}

interface ProjectInfo {
  projectId: string;
  fieldId: string | undefined;
  /** The data type of an existing "Task score" field that is not a number. */
  wrongType?: string;
}

/** Project and field ids by URL, kept a few minutes so a backfill does not look the board up for every issue. */
const known = new Map<string, { info: ProjectInfo; until: number }>();
const KNOWN_MS = 10 * 60_000;
const KNOWN_MAX = 500;

/** For tests: forget every looked-up board. */
export function forgetProjects(): void {
  known.clear();
}

function fix(p: ProjectRef): string {
  return p.scope === "organization"
    ? "check `project` in .github/task-scorer.yml, and that the App has the Organization projects permission (read and write), which an organisation owner accepts in the installation's settings"
    : "check `project` in .github/task-scorer.yml; a GitHub App's installation token may not reach a user's board, so use an organisation's board";
}

async function graphql<T>(
  github: GitHubRequest,
  baseUrl: string | undefined,
  project: ProjectRef,
  query: string,
  variables: Record<string, unknown>,
): Promise<T> {
  let body: { data?: T | null; errors?: GraphqlError[] };
  try {
    const r = await github.request("POST /graphql", {
      ...(baseUrl ? { baseUrl: graphqlBaseUrl(baseUrl) } : {}),
      query,
      variables,
    });
    body = r.data as typeof body;
  } catch (error) {
    const status = httpStatus(error);
    if (isPermissionStatus(status))
      throw new ProjectUnreachable(
        `${describeProject(project)} could not be reached (GitHub answered ${status}): ${fix(project)}`,
        { cause: error },
      );
    throw error;
  }
  if (body.errors?.length) {
    const first = body.errors[0]!;
    const why = first.type ?? "error";
    throw new ProjectUnreachable(
      `${describeProject(project)} could not be ${why === "NOT_FOUND" ? "found" : "written"} (${why}): ${fix(project)}`,
    );
  }
  return body.data as T;
}

const FIELDS = `id fields(first: 50) { nodes { ... on ProjectV2Field { id name dataType } } }`;

async function lookUp(
  github: GitHubRequest,
  baseUrl: string | undefined,
  project: ProjectRef,
): Promise<ProjectInfo> {
  const query = `query($login: String!, $number: Int!) { owner: ${project.scope}(login: $login) { projectV2(number: $number) { ${FIELDS} } } }`;
  const data = await graphql<{
    owner?: {
      projectV2?: {
        id: string;
        fields?: { nodes?: ({ id?: string; name?: string; dataType?: string } | null)[] };
      } | null;
    } | null;
  }>(github, baseUrl, project, query, { login: project.login, number: project.number });
  const board = data?.owner?.projectV2;
  if (!board)
    throw new ProjectUnreachable(
      `${describeProject(project)} could not be found (NOT_FOUND): ${fix(project)}`,
    );
  const field = board.fields?.nodes?.find((n) => n?.name === SCORE_FIELD);
  return {
    projectId: board.id,
    fieldId: field?.dataType === "NUMBER" ? field.id : undefined,
    ...(field && field.dataType !== "NUMBER" ? { wrongType: field.dataType ?? "unknown" } : {}),
  };
}

const inFlight = new Map<string, Promise<ProjectInfo & { fieldCreated?: boolean }>>();

/** The board's id and its "Task score" field, created when missing. */
async function prepare(
  github: GitHubRequest,
  baseUrl: string | undefined,
  project: ProjectRef,
): Promise<ProjectInfo & { fieldCreated?: boolean }> {
  const info = await lookUp(github, baseUrl, project);
  if (info.wrongType)
    throw new ProjectUnreachable(
      `${describeProject(project)} has a field "${SCORE_FIELD}" of type ${info.wrongType}; rename or delete it so task-scorer can create its number field`,
    );
  if (info.fieldId) return info;
  try {
    const created = await graphql<{ createProjectV2Field?: { projectV2Field?: { id?: string } } }>(
      github,
      baseUrl,
      project,
      `
        mutation ($projectId: ID!, $name: String!) {
          createProjectV2Field(input: { projectId: $projectId, dataType: NUMBER, name: $name }) {
            projectV2Field {
              ... on ProjectV2Field {
                id
              }
            }
          }
        }
      `,
      { projectId: info.projectId, name: SCORE_FIELD },
    );
    const fieldId = created?.createProjectV2Field?.projectV2Field?.id;
    if (fieldId) return { projectId: info.projectId, fieldId, fieldCreated: true };
  } catch (error) {
    if (!(error instanceof ProjectUnreachable)) throw error;
  }
  // Another writer (a second replica) may have created it in the meantime.
  const again = await lookUp(github, baseUrl, project);
  if (again.fieldId) return again;
  throw new ProjectUnreachable(
    `the field "${SCORE_FIELD}" could not be created on ${describeProject(project)}`,
  );
}

export interface ProjectWrite {
  itemId: string;
  fieldCreated: boolean;
}

/**
 * Add the content (an issue's or pull request's node id) to the board and set "Task score" to `score`.
 * Adding is idempotent on GitHub's side (an item already on the board is returned as it is).
 */
export async function setProjectScore(
  github: GitHubRequest,
  url: string,
  contentId: string,
  score: number,
  options: { baseUrl?: string | undefined; now?: () => number } = {},
): Promise<ProjectWrite> {
  const project = parseProjectUrl(url);
  if (!project) throw new ProjectUnreachable("`project` is not the URL of a Projects v2 board");
  const now = options.now ?? Date.now;
  const key = url.trim().toLowerCase();
  try {
    const cached = known.get(key);
    let info: ProjectInfo & { fieldCreated?: boolean };
    if (cached && cached.until > now()) info = cached.info;
    else {
      // One look-up (and one field creation) per board at a time, however many jobs score at once.
      let pending = inFlight.get(key);
      if (!pending) {
        pending = prepare(github, options.baseUrl, project).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      info = await pending;
      if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
      known.set(key, { info: { projectId: info.projectId, fieldId: info.fieldId }, until: now() + KNOWN_MS });
    }
    const fieldCreated = info.fieldCreated ?? false;
    const added = await graphql<{ addProjectV2ItemById?: { item?: { id?: string } } }>(
      github,
      options.baseUrl,
      project,
      `
        mutation ($projectId: ID!, $contentId: ID!) {
          addProjectV2ItemById(input: { projectId: $projectId, contentId: $contentId }) {
            item {
              id
            }
          }
        }
      `,
      { projectId: info.projectId, contentId },
    );
    const itemId = added?.addProjectV2ItemById?.item?.id;
    if (!itemId) throw new ProjectUnreachable(`the item could not be added to ${describeProject(project)}`);
    await graphql(
      github,
      options.baseUrl,
      project,
      `
        mutation ($projectId: ID!, $itemId: ID!, $fieldId: ID!, $value: Float!) {
          updateProjectV2ItemFieldValue(
            input: { projectId: $projectId, itemId: $itemId, fieldId: $fieldId, value: { number: $value } }
          ) {
            projectV2Item {
              id
            }
          }
        }
      `,
      { projectId: info.projectId, itemId, fieldId: info.fieldId, value: score },
    );
    return { itemId, fieldCreated };
  } catch (error) {
    // The board may have changed (field deleted, permission revoked): look it up afresh next time.
    known.delete(key);
    throw error;
  }
}
