import type { FastifyReply } from "fastify";
import { KIND_NAMES, KINDS, pageContract } from "../core/contract.js";

// The HTML pieces every page of this server shares: the start page, the board, sign-in and registration.

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

/** The contract's lists as a page's `data-contract` attribute (escaped): the pages' scripts read them from there. */
export function contractAttribute(): string {
  return escapeHtml(JSON.stringify(pageContract()));
}

/** The kinds as a select's options, after an "Any" (the board's kind filter), a line each after the first. */
export function kindOptions(indent: string): string {
  const options = KINDS.map((k) => `<option value="${k}">${escapeHtml(KIND_NAMES[k].label)}</option>`);
  return [`<option value="">Any</option>`, ...options].join(`\n${indent}`);
}
