import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { packageRoot } from "../../config/package-info.js";
import { OWNER_RE, REPO_RE } from "./backlog-tasks.js";
import { contractAttribute, escapeHtml, htmlPage, kindOptions, sendHtml } from "../html.js";

export interface BoardPageOptions {
  /** Where the repositories live, for the heading's link: https://github.com, or an Enterprise host. */
  githubWebUrl: string;
  /** Whether "Sign in with GitHub" is configured: the page offers it only then. */
  signIn: boolean;
}

/** A plain page for a request the board cannot serve (a name GitHub would not accept). */
function problemPage(title: string, message: string): string {
  return htmlPage(title, `      <p role="alert">${escapeHtml(message)}</p>`);
}

/**
 * GET /board/{owner}/{repo}: the page over `GET /api/repos/{owner}/{repo}/tasks`. The page itself holds no
 * data (the same for every repository, public or private): its script reads the API with the visitor's
 * session, so access is decided in one place, the API. GET /board?repository=owner/name opens it from
 * the start page's form.
 */
export function boardPagePlugin(options: BoardPageOptions) {
  const template = readFileSync(join(packageRoot(), "web", "board.html"), "utf8")
    .replace("{{kindOptions}}", kindOptions(" ".repeat(12)))
    .replace("{{contract}}", contractAttribute());
  const web = options.githubWebUrl.replace(/\/+$/, "");
  return async (app: FastifyInstance) => {
    app.get<{ Params: { owner: string; repo: string } }>(
      "/board/:owner/:repo",
      { schema: { hide: true } },
      (request, reply) => {
        const { owner, repo } = request.params;
        if (!OWNER_RE.test(owner) || !REPO_RE.test(repo))
          return sendHtml(
            reply,
            problemPage(
              "Not a repository name",
              `“${owner}/${repo}” is not a GitHub repository name: the address is /board/OWNER/REPOSITORY.`,
            ),
            400,
          );
        const name = `${owner}/${repo}`;
        const page = template
          .replaceAll("{{repository}}", escapeHtml(name))
          .replace("{{githubUrl}}", escapeHtml(`${web}/${name}`))
          .replace("{{signIn}}", options.signIn ? "on" : "off");
        return sendHtml(reply, page);
      },
    );
    app.get<{ Querystring: { repository?: string } }>(
      "/board",
      { schema: { hide: true } },
      (request, reply) => {
        const wanted = String(request.query.repository ?? "")
          .trim()
          .replace(/^https?:\/\/[^/]+\//i, "")
          .replace(/\/+$/, "");
        const [owner = "", repo = "", ...rest] = wanted.split("/");
        if (rest.length > 0 || !OWNER_RE.test(owner) || !REPO_RE.test(repo))
          return sendHtml(
            reply,
            problemPage(
              "Which repository?",
              "Give a repository as OWNER/NAME (for example octo-org/widgets), or its GitHub address.",
            ),
            400,
          );
        return reply.redirect(`/board/${owner}/${repo}`, 303);
      },
    );
  };
}
