import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ApprovalPolicy } from "../../core/approval.js";
import { packageRoot } from "../../config/package-info.js";

/**
 * Strict by default: scripts, styles and requests only from this server, no inline script or style,
 * no framing. `formAction` adds GitHub's origin on the registration pages, which post a form there.
 */
export function contentSecurityPolicy(formAction: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `form-action 'self'${formAction.map((o) => ` ${o}`).join("")}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers for every HTML page this server renders. */
export function sendHtml(reply: FastifyReply, html: string, status = 200, formAction: string[] = []) {
  return reply
    .code(status)
    .header("content-security-policy", contentSecurityPolicy(formAction))
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(html);
}

/** A plain page of this server's (sign-in, registration, a refused board): a heading, trusted HTML, a way back. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)} · task-scorer</title>
    <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/assets/try-it.css" />
  </head>
  <body>
    <main>
      <h1>${escapeHtml(title)}</h1>
${body}
      <p><a href="/">Back to the start page</a></p>
    </main>
  </body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

export interface WebPageOptions {
  policy: ApprovalPolicy;
  scorer: string;
  /** With AUTH=keys the try-it form asks for an API key (kept in the page's memory, sent as a bearer token). */
  keys?: boolean;
  /** Shown when the App has no credentials: where registration goes ("GitHub.com" or an Enterprise host). */
  registration?: { target: string } | undefined;
}

const ASSETS: Record<string, string> = {
  "try-it.js": "text/javascript; charset=utf-8",
  "try-it.css": "text/css; charset=utf-8",
  "setup.js": "text/javascript; charset=utf-8",
  "board.js": "text/javascript; charset=utf-8",
  "board.css": "text/css; charset=utf-8",
  "favicon.svg": "image/svg+xml",
};

/** The start page (try it, and register the App when it is off) and its static files, read once at start. */
export function webPagePlugin(options: WebPageOptions) {
  const dir = join(packageRoot(), "web");
  let page = readFileSync(join(dir, "index.html"), "utf8")
    .replace("{{scorer}}", escapeHtml(options.scorer))
    .replace("{{policy}}", escapeHtml(JSON.stringify(options.policy)))
    .replace("{{keys}}", options.keys ? "true" : "false");
  page = options.registration
    ? page.replace("{{target}}", escapeHtml(options.registration.target))
    : page.replace(/\s*<!-- register:start -->[\s\S]*<!-- register:end -->/, "");
  const assets = new Map(
    Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(join(dir, name)) }]),
  );

  return async (app: FastifyInstance) => {
    app.get("/", { schema: { hide: true } }, (_request, reply) => sendHtml(reply, page));
    app.get<{ Params: { name: string } }>("/assets/:name", { schema: { hide: true } }, (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.callNotFound();
      return reply
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "public, max-age=300")
        .type(asset.type)
        .send(asset.body);
    });
  };
}
