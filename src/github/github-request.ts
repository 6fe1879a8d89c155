/**
 * The smallest GitHub client the outputs need: Octokit's `request` (Probot's, `@actions/github`'s, or the
 * backfill's rate-limited wrapper around one). Labels, check runs and Projects v2 are all written through it.
 */
import type { IssueRef } from "./report-comment.js";

export interface GitHubRequest {
  request(
    route: string,
    params?: Record<string, unknown>,
  ): Promise<{ status: number; headers?: Record<string, string | number | undefined>; data: unknown }>;
}

/** The REST API's base URL of an Octokit (`https://api.github.com`, or `https://HOST/api/v3` on GHE). */
export function apiBaseUrl(octokit: unknown): string | undefined {
  const request = (octokit as { request?: { endpoint?: { DEFAULTS?: { baseUrl?: string } } } }).request;
  return request?.endpoint?.DEFAULTS?.baseUrl;
}

/** GraphQL's base URL beside a REST base: GHE serves it at /api/graphql, github.com at /graphql. */
export function graphqlBaseUrl(restBase: string | undefined): string | undefined {
  return restBase?.replace(/\/api\/v3\/?$/, "/api");
}

/**
 * The HTTP status an Octokit error carries, if any; undefined where GitHub was not reached. Octokit reports a failed
 * connection (refused, DNS, TLS) as an `HttpError` of status 500 with no `response`: that is no answer from GitHub,
 * and a message saying "GitHub answered 500" sent people looking for an outage that was their network. A request
 * aborted before an answer (Octokit's AbortError, also 500) is the same.
 */
export function httpStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  const n = Number((error as { status: unknown }).status);
  if (
    n === 500 &&
    ["HttpError", "AbortError"].includes(String((error as { name?: unknown }).name)) &&
    (error as { response?: unknown }).response === undefined
  )
    return undefined;
  return Number.isFinite(n) ? n : undefined;
}

/** Statuses that say "not allowed or not there": a maintainer's fix, not a retry. */
export function isPermissionStatus(status: number | undefined): boolean {
  return status === 401 || status === 403 || status === 404 || status === 410;
}

/** The label calls `approval-labels` and `kind-labels` make. */
export interface LabelsOctokit {
  rest: {
    issues: {
      getLabel: (p: { owner: string; repo: string; name: string }) => Promise<unknown>;
      createLabel: (p: {
        owner: string;
        repo: string;
        name: string;
        color: string;
        description?: string;
      }) => Promise<unknown>;
      addLabels: (p: IssueRef & { labels: string[] }) => Promise<unknown>;
      removeLabel: (p: IssueRef & { name: string }) => Promise<unknown>;
    };
  };
}

/** The label calls of `approval-labels` and `kind-labels`, made through `request`. */
export function labelsClient(github: GitHubRequest): LabelsOctokit {
  return {
    rest: {
      issues: {
        getLabel: (p) => github.request("GET /repos/{owner}/{repo}/labels/{name}", p),
        createLabel: (p) => github.request("POST /repos/{owner}/{repo}/labels", p),
        addLabels: (p) => github.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", p),
        removeLabel: (p) =>
          github.request("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", p),
      },
    },
  };
}
