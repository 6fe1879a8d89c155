import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseEnv } from "node:util";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { packageRoot } from "../config/package-info.js";
import { isLoopbackHost } from "../config/service-config.js";
import { updateEnvFile } from "../config/write-env-file.js";
import { escapeHtml, htmlPage, sendHtml } from "../http/html.js";

/**
 * Registering the App through GitHub's manifest flow, from the start page: the manifest (built from
 * app.yml by Probot's own ManifestCreation, with this server's URLs) is posted to GitHub's new-app
 * form; GitHub sends the person back with a code, which is exchanged for the App's credentials
 * (POST /app-manifests/{code}/conversions, again Probot's), and those are written to .env.
 */

/** The part of Probot's ManifestCreation used here (probot 14, lib/manifest-creation.js). */
interface ManifestCreation {
  getManifest(options: {
    pkg: { name?: string; description?: string };
    baseUrl: string;
    readFileSync?: (path: string, encoding: "utf8") => string;
  }): string;
  createAppFromCode(code: string, options?: Record<string, unknown>): Promise<string>;
}
type ManifestCreationClass = new (options?: {
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}) => ManifestCreation;

/**
 * Probot does not export ManifestCreation from its package entry (its setup app uses it), so it is
 * loaded from next to that entry. Reusing it keeps the manifest defaults and the conversion call
 * (with its GHES preview header) the same as Probot's own setup.
 */
async function loadManifestCreation(): Promise<ManifestCreationClass> {
  const entry = createRequire(import.meta.url).resolve("probot");
  const mod = (await import(pathToFileURL(join(dirname(entry), "manifest-creation.js")).href)) as {
    ManifestCreation: ManifestCreationClass;
  };
  return mod.ManifestCreation;
}

export interface RegistrationOptions {
  /** Where the credentials are written (the .env the server loads at start). */
  envFile: string;
  /** GitHub Enterprise Server (GHE_HOST, GHE_PROTOCOL); undefined means github.com. */
  ghe?: { host: string; protocol: "http" | "https" } | undefined;
  webhookPath: string;
  /** A smee.io channel for local development: GitHub delivers there and the server relays. */
  webhookProxyUrl?: string | undefined;
  /** PUBLIC_URL: the base of every URL given to GitHub. Unset: the loopback address the request arrived on. */
  publicUrl?: string | undefined;
  logger: Logger;
}

/** The cookie that ties a registration's state to the browser that started it. */
const STATE_COOKIE = "task_scorer_registration";

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/**
 * The name the browser used for this server, when it is a loopback name (localhost, 127.x.x.x, [::1]) with the
 * port of the connection it arrived on, on a connection that really is local: such a Host header can only come
 * from this machine (a DNS-rebinding page sends its own name), so the registration stays under that name and the
 * form posts to its own origin (`form-action 'self'`). Otherwise undefined.
 */
export function loopbackOrigin(request: FastifyRequest): string | undefined {
  const address = request.socket.localAddress;
  if (!address || !isLoopbackHost(address)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${request.host}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== "/" || url.search) return undefined;
  if (!isLoopbackHost(url.hostname) || url.port !== String(request.socket.localPort)) return undefined;
  return url.origin;
}

/** Whether GitHub cannot deliver to this URL: a loopback address (or localhost) is this machine, not GitHub's. */
function unreachableByGitHub(webhookUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(webhookUrl).hostname);
  } catch {
    return false;
  }
}

const ORG_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const STATE_TTL_MS = 60 * 60 * 1000;
const CREDENTIALS = [
  "APP_ID",
  "PRIVATE_KEY",
  "WEBHOOK_SECRET",
  "GITHUB_CLIENT_ID",
  "GITHUB_CLIENT_SECRET",
] as const;
/** Where the next start's sign-in sends GitHub back: the callback URL this registration gave GitHub. */
const CALLBACK_VARIABLE = "GITHUB_CALLBACK_URL";

/** Whether a SESSION_SECRET is already set, in the environment or in the env file about to be written. */
function hasSessionSecret(envFile: string): boolean {
  if (process.env.SESSION_SECRET?.trim()) return true;
  try {
    return Boolean(parseEnv(readFileSync(envFile, "utf8")).SESSION_SECRET?.trim());
  } catch {
    return false;
  }
}

function problem(reply: FastifyReply, status: number, title: string, message: string) {
  return sendHtml(reply, htmlPage(title, `      <p role="alert">${escapeHtml(message)}</p>`), status);
}

/** Where the target's "New GitHub App" form lives: a personal account, an organisation, on github.com or GHES. */
export function newAppUrl(
  ghe: RegistrationOptions["ghe"],
  account: { organization?: string | undefined },
  state: string,
): string {
  const web = ghe ? `${ghe.protocol}://${ghe.host}` : "https://github.com";
  const owner = account.organization ? `/organizations/${encodeURIComponent(account.organization)}` : "";
  return `${web}${owner}/settings/apps/new?state=${encodeURIComponent(state)}`;
}

export function registrationTarget(ghe: RegistrationOptions["ghe"]): string {
  return ghe ? `GitHub Enterprise Server (${ghe.host})` : "GitHub.com";
}

export async function registrationPlugin(options: RegistrationOptions) {
  const ManifestCreationImpl = await loadManifestCreation();
  const appYml = readFileSync(join(packageRoot(), "app.yml"), "utf8");
  const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    name: string;
    description: string;
  };
  /** Registrations under way: when each expires, and the webhook URL its manifest gave GitHub. */
  const states = new Map<string, { expires: number; webhookUrl: string; baseUrl: string }>();
  const ghWeb = options.ghe ? `${options.ghe.protocol}://${options.ghe.host}` : "https://github.com";

  const webhookUrlFor = (baseUrl: string) => options.webhookProxyUrl ?? `${baseUrl}${options.webhookPath}`;

  function manifestFor(baseUrl: string): string {
    const setup = new ManifestCreationImpl();
    const manifest = JSON.parse(setup.getManifest({ pkg, baseUrl, readFileSync: () => appYml })) as Record<
      string,
      unknown
    > & { hook_attributes?: Record<string, unknown> };
    // app.yml carries a placeholder webhook URL; this server's own URLs replace it (and Probot's
    // /probot/setup callback, which this server does not serve).
    manifest.hook_attributes = {
      ...manifest.hook_attributes,
      url: webhookUrlFor(baseUrl),
    };
    manifest.redirect_url = `${baseUrl}/setup/callback`;
    // "Sign in with GitHub" (private repositories' boards) uses the App's own OAuth: its callback, and no
    // authorization asked of whoever installs the App.
    manifest.callback_urls = [`${baseUrl}/auth/github/callback`];
    manifest.request_oauth_on_install = false;
    return JSON.stringify(manifest);
  }

  function newState(baseUrl: string): string {
    const now = Date.now();
    for (const [s, { expires }] of states) if (expires < now || states.size > 100) states.delete(s);
    const state = randomBytes(16).toString("hex");
    states.set(state, { expires: now + STATE_TTL_MS, webhookUrl: webhookUrlFor(baseUrl), baseUrl });
    return state;
  }

  /**
   * This server's base URL: PUBLIC_URL; or else the loopback name the browser used (localhost, 127.0.0.1,
   * [::1], see `loopbackOrigin`); or else the loopback address and port the connection arrived on. Never
   * another name from the Host header (which the sender chooses).
   */
  function baseUrlOf(request: FastifyRequest): string {
    if (options.publicUrl) return options.publicUrl;
    const named = loopbackOrigin(request);
    if (named) return named;
    const address = request.socket.localAddress ?? "127.0.0.1";
    const host = isIP(address) === 6 ? `[${address}]` : address;
    return `http://${host}:${request.socket.localPort}`;
  }

  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post<{ Body: Record<string, string> | undefined }>(
      "/setup/register",
      { schema: { hide: true } },
      (request, reply) => {
        const body = request.body && typeof request.body === "object" ? request.body : {};
        const organization = body.account === "organization" ? (body.org ?? "").trim() : undefined;
        if (organization !== undefined && !ORG_NAME.test(organization)) {
          return problem(
            reply,
            400,
            "Organisation name needed",
            "Enter the organisation's name as in its GitHub URL (letters, digits and hyphens), or choose your personal account.",
          );
        }
        const baseUrl = baseUrlOf(request);
        // Reached under a name that is not this machine's own (a proxy's host, a forged Host): continue at the
        // base URL, so that the state cookie is set for the host GitHub sends the browser back to.
        if (!options.publicUrl && new URL(baseUrl).host !== request.host) {
          return reply.redirect(`${baseUrl}/setup/register`, 307);
        }
        const state = newState(baseUrl);
        const action = newAppUrl(options.ghe, { organization }, state);
        void reply.header(
          "set-cookie",
          `${STATE_COOKIE}=${state}; Path=/setup; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${
            baseUrl.startsWith("https:") ? "; Secure" : ""
          }`,
        );
        const owner = organization ? `the organisation ${organization}` : "your personal account";
        const html = htmlPage(
          "Continue on GitHub",
          `      <p>GitHub will ask you to confirm the new App for ${escapeHtml(owner)} on ${escapeHtml(registrationTarget(options.ghe))}.
      Its webhooks will go to <code>${escapeHtml(webhookUrlFor(baseUrl))}</code>.</p>
      <form method="post" action="${escapeHtml(action)}" data-autosubmit>
        <input type="hidden" name="manifest" value="${escapeHtml(manifestFor(baseUrl))}" />
        <button type="submit">Continue to GitHub</button>
      </form>
      <script src="/assets/setup.js"></script>`,
        );
        return sendHtml(reply, html, 200, [ghWeb]);
      },
    );

    app.get<{ Querystring: { code?: string; state?: string } }>(
      "/setup/callback",
      { schema: { hide: true } },
      async (request, reply) => {
        const { code, state } = request.query;
        const started = typeof state === "string" ? states.get(state) : undefined;
        // The state must come back to the browser that started the registration, not a link sent to it.
        if (!started || started.expires < Date.now() || cookieOf(request, STATE_COOKIE) !== state) {
          return problem(
            reply,
            400,
            "Registration not recognised",
            "This link was not started from this browser on this server, or it has expired. Start again from the start page.",
          );
        }
        if (typeof code !== "string" || !/^[\w-]{1,100}$/.test(code)) {
          return problem(reply, 400, "No code from GitHub", "GitHub did not send a code. Start again.");
        }
        states.delete(state!);
        void reply.header("set-cookie", `${STATE_COOKIE}=; Path=/setup; HttpOnly; SameSite=Lax; Max-Age=0`);
        let written: string[] = [];
        let htmlUrl: string;
        try {
          const setup = new ManifestCreationImpl({
            updateEnv: (env) => {
              // The App's credentials and its OAuth client (sign-in), with a fresh SESSION_SECRET unless one
              // is already set (in the file or the environment): replacing it would sign everyone out.
              const values: Record<string, string> = Object.fromEntries(
                CREDENTIALS.map((k) => [k, env[k] ?? ""]),
              );
              // The callback URL the manifest registered (the name this browser used): the next start's
              // "Sign in with GitHub" sends GitHub exactly this redirect_uri, whatever name a visitor uses.
              values[CALLBACK_VARIABLE] = `${started.baseUrl}/auth/github/callback`;
              if (!hasSessionSecret(options.envFile))
                values.SESSION_SECRET = randomBytes(32).toString("base64url");
              updateEnvFile(options.envFile, values);
              written = Object.keys(values);
              return env;
            },
          });
          // Probot spreads these options into the request too, so only known request options go here.
          htmlUrl = await setup.createAppFromCode(
            code,
            options.ghe ? { baseUrl: `${options.ghe.protocol}://${options.ghe.host}/api/v3` } : {},
          );
        } catch (err) {
          const status = (err as { status?: number }).status;
          options.logger.warn(
            { status, message: (err as Error).message.split("\n")[0] },
            "GitHub App registration: the code exchange failed",
          );
          return problem(
            reply,
            502,
            "GitHub did not complete the registration",
            status
              ? `GitHub answered ${status} to the code exchange. A code works once and expires after an hour; start again.`
              : `GitHub could not be reached at ${ghWeb}. Check the network and start again.`,
          );
        }
        options.logger.info(
          { appUrl: htmlUrl, envFile: options.envFile, written },
          "GitHub App registered: credentials written; restart the server to enable it",
        );
        const install = `${htmlUrl}/installations/new`;
        // A webhook URL on this machine (no WEBHOOK_PROXY_URL): GitHub cannot deliver to it, so no comment
        // would ever appear; the page says so and what to do instead of promising one.
        const unreachable = unreachableByGitHub(started.webhookUrl);
        const lastStep = unreachable
          ? `<li role="alert"><strong>GitHub cannot reach this App's webhook URL</strong>, <code>${escapeHtml(started.webhookUrl)}</code>:
        it is an address on this machine, so no issue event arrives here and no report comment appears. Either set
        <code>WEBHOOK_PROXY_URL</code> to a channel from <a href="https://smee.io/new">smee.io/new</a> in <code>.env</code>,
        enter that channel as the Webhook URL in the App's settings on GitHub (Developer settings, GitHub Apps, Edit) and
        restart: the server relays its deliveries here. Or run the server at a public URL (<code>PUBLIC_URL</code>) and
        enter <code>{PUBLIC_URL}${escapeHtml(options.webhookPath)}</code> there. Until then <code>POST /score-task</code> and
        the start page's form work as before.</li>`
          : `<li>Open or edit an issue there: the report comment appears within seconds.</li>`;
        return sendHtml(
          reply,
          htmlPage(
            "GitHub App registered",
            `      <p>The App's ID, private key and webhook secret, its OAuth client ID and secret (for "Sign in with
      GitHub" on private repositories' boards) and a session secret are in <code>${escapeHtml(options.envFile)}</code>
      (other lines there are unchanged).</p>
      <h2>Next</h2>
      <ol>
        <li>Restart this server (stop it, then <code>npm start</code>) so it reads <code>.env</code>; its log then says
        "GitHub App enabled".</li>
        <li><a href="${escapeHtml(install)}">Install the App</a> on the repositories it should score.</li>
        ${lastStep}
      </ol>`,
          ),
        );
      },
    );
  };
}
