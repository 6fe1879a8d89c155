import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ApprovalPolicy } from "../../core/approval.js";
import { packageRoot } from "../../config/package-info.js";
import { contractAttribute, escapeHtml, sendHtml } from "../html.js";

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
    .replace("{{keys}}", options.keys ? "true" : "false")
    .replace("{{contract}}", contractAttribute());
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
