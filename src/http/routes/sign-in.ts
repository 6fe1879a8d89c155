import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { TaskScorerError } from "../../core/errors.js";
import { ErrorBodySchema } from "../../core/score-report.schema.js";
import {
  clearCookie,
  readCookie,
  serializeCookie,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  STATE_COOKIE,
  STATE_TTL_SECONDS,
  type SessionCookies,
} from "../session-cookie.js";
import { exchangeCode, signedInUser, type GitHubUrls } from "../../github/github-oauth.js";
import { escapeHtml, htmlPage, sendHtml } from "../html.js";

/**
 * "Sign in with GitHub" (the App's own OAuth web flow, a user-to-server token) for private repositories'
 * boards:
 *
 * - `GET /auth/github/login?return_to=/board/OWNER/REPO`: a signed state cookie, then GitHub's authorize page;
 * - `GET /auth/github/callback?code&state`: the state checked against that cookie, the code exchanged for the
 *   user's token, `GET /user`, the session cookie set, back to `return_to`;
 * - `POST /auth/logout`: the session ended on the server and its cookie cleared, 303 to `/`;
 * - `GET /auth/me`: `{ login }`, or 401 (the board shows who is signed in).
 *
 * Every failure on the way is an HTML page with a sentence a person can act on, never a 500.
 */

export interface SignInRouteOptions {
  /** Set when sign-in is configured (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and SESSION_SECRET). */
  settings?: { clientId: string; clientSecret: string; callbackUrl?: string | undefined } | undefined;
  sessions?: SessionCookies | undefined;
  /** GitHub's web (OAuth) and REST API base URLs: github.com, or GitHub Enterprise Server's. */
  github: GitHubUrls;
  /**
   * PUBLIC_URL: the base of the callback URL; unset, the origin of GITHUB_CALLBACK_URL (the one registering
   * the App from the start page gave GitHub); neither set, the origin the request arrived on.
   */
  publicUrl?: string | undefined;
  fetch?: typeof fetch;
}

const STATE_PATH = "/auth/github";

/** A path is only ever read against this, so that "same origin" means "a path on this server". */
const SAME_ORIGIN = "http://same-origin.invalid";
/** One leading "/" and then anything but a second "/" or a backslash: never protocol-relative. */
const ONE_SLASH_PATH = /^\/(?![/\\])/;

function hasControlOrBackslash(value: string): boolean {
  return [...value].some((c) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/**
 * Only a path on this server: one leading "/", no scheme, no host, no backslash or control character. What is
 * checked is what the browser is sent to: the value is normalised first (dot segments, `%2e`, as `new URL` and
 * browsers resolve them: `/.//evil.example` becomes `//evil.example`), and the normalised path and query must
 * still be a path on this origin. The fragment is dropped (the board never sends one).
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length > 1000) return "/";
  if (!ONE_SLASH_PATH.test(value) || hasControlOrBackslash(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== SAME_ORIGIN) return "/";
  const target = `${url.pathname}${url.search}`;
  if (!ONE_SLASH_PATH.test(target) || hasControlOrBackslash(target)) return "/";
  // Read back as a browser would read the Location header: still this origin, still this path.
  const reread = new URL(target, SAME_ORIGIN);
  if (reread.origin !== SAME_ORIGIN || `${reread.pathname}${reread.search}` !== target) return "/";
  return target;
}

function problem(reply: FastifyReply, status: number, title: string, message: string, retry?: string) {
  const again = retry
    ? `\n      <p><a href="${escapeHtml(`/auth/github/login?return_to=${encodeURIComponent(retry)}`)}">Sign in with GitHub again</a></p>`
    : "";
  return sendHtml(reply, htmlPage(title, `      <p role="alert">${escapeHtml(message)}</p>${again}`), status);
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function signInRoutes(app: FastifyInstance, options: SignInRouteOptions): Promise<void> {
  const { settings, sessions, github } = options;
  const configured = settings && sessions ? { settings, sessions } : undefined;
  const githubHost = new URL(github.webUrl).host;

  // The base GitHub knows: configured (PUBLIC_URL) or registered (GITHUB_CALLBACK_URL). The callback URL sent
  // as redirect_uri must be one of the App's callback URLs, so it is never built from the name a visitor used
  // when one of these is set.
  const knownBase =
    options.publicUrl ?? (settings?.callbackUrl ? new URL(settings.callbackUrl).origin : undefined);
  const baseUrlOf = (request: FastifyRequest) => knownBase ?? `${request.protocol}://${request.host}`;
  const secureFor = (request: FastifyRequest) =>
    baseUrlOf(request).startsWith("https:") || request.protocol === "https";
  const callbackUrl = (request: FastifyRequest) =>
    options.publicUrl || !settings?.callbackUrl
      ? `${baseUrlOf(request)}/auth/github/callback`
      : settings.callbackUrl;

  // A session GitHub refused (see user-repo-access.ts) is cleared on the answer that found it out. On the root
  // instance, so that the backlog's and the board's routes have it too.
  if (sessions) {
    app.addHook("onSend", (request, reply, payload, done) => {
      if (sessions.wasForgotten(request))
        void reply.header("set-cookie", clearCookie(SESSION_COOKIE, { secure: secureFor(request) }));
      done(null, payload);
    });
  }

  const notConfigured = (request: FastifyRequest, reply: FastifyReply) =>
    sendHtml(
      reply,
      htmlPage(
        "Sign-in is not configured",
        `      <p role="alert">Sign in with GitHub is not configured on this server, so private repositories' boards cannot be shown here. Public repositories' boards need no sign-in.</p>
      <p>To turn it on, the operator sets, and then restarts the server:</p>
      <ul>
        <li><code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code>: the GitHub App's client ID and a client secret, from its settings page (registering the App from the start page writes both to <code>.env</code>);</li>
        <li><code>SESSION_SECRET</code>: at least 32 random characters, e.g. from <code>openssl rand -base64 32</code>;</li>
        <li>and adds <code>${escapeHtml(callbackUrl(request))}</code> as a callback URL on the App's settings page.</li>
      </ul>`,
      ),
      404,
    );

  await app.register(async (scope) => {
    // The board's "Sign out" is a plain form post; its (empty) body is not needed.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, _body, done) => done(null, {}),
    );

    scope.get("/auth/github/login", { schema: { hide: true } }, (request, reply) => {
      if (!configured) return notConfigured(request, reply);
      const query = request.query as Record<string, unknown>;
      const returnTo = safeReturnTo(query.return_to);
      const base = baseUrlOf(request);
      // Reached under another name than PUBLIC_URL or the registered callback's (127.0.0.1 for localhost):
      // continue there, so that the state cookie is set for the host GitHub sends the browser back to.
      if (knownBase && new URL(base).host !== request.host)
        return reply.redirect(`${base}/auth/github/login?return_to=${encodeURIComponent(returnTo)}`, 302);
      const state = randomBytes(16).toString("base64url");
      const authorize = new URL(`${github.webUrl}/login/oauth/authorize`);
      authorize.searchParams.set("client_id", configured.settings.clientId);
      authorize.searchParams.set("redirect_uri", callbackUrl(request));
      authorize.searchParams.set("state", state);
      void reply
        .header(
          "set-cookie",
          serializeCookie(STATE_COOKIE, configured.sessions.sealState({ state, returnTo }), {
            path: STATE_PATH,
            maxAgeSeconds: STATE_TTL_SECONDS,
            secure: secureFor(request),
          }),
        )
        .header("cache-control", "no-store")
        .header("referrer-policy", "no-referrer");
      return reply.redirect(authorize.href, 302);
    });

    scope.get("/auth/github/callback", { schema: { hide: true } }, async (request, reply) => {
      if (!configured) return notConfigured(request, reply);
      const { sessions: cookies, settings: client } = configured;
      const secure = secureFor(request);
      const query = request.query as Record<string, unknown>;
      const saved = cookies.openState(readCookie(request, STATE_COOKIE));
      // The state cookie is used once, whatever happens next.
      void reply.header("set-cookie", clearCookie(STATE_COOKIE, { path: STATE_PATH, secure }));
      const retry = saved?.returnTo ?? "/";

      const state = typeof query.state === "string" ? query.state : "";
      if (!saved || !state || !sameString(saved.state, state)) {
        return problem(
          reply,
          400,
          "Sign-in not recognised",
          "This sign-in was not started from this browser, or it took longer than 10 minutes. Start again from the board (cookies must be allowed for this site).",
          retry,
        );
      }
      // Used once, whatever happens next: a state kept (with its cookie) and sent with a second code is refused.
      if (!cookies.useState(state)) {
        return problem(
          reply,
          400,
          "Sign-in already used",
          "This sign-in was already used. Start again from the board to sign in.",
          retry,
        );
      }
      if (typeof query.error === "string") {
        const code = /^[a-z_]{1,64}$/.test(query.error) ? query.error : "an error";
        const mismatch = code === "redirect_uri_mismatch";
        return problem(
          reply,
          mismatch ? 502 : 403,
          mismatch ? "GitHub refused the callback URL" : "Sign-in cancelled",
          mismatch
            ? `GitHub refused this server's callback URL. The operator adds ${callbackUrl(request)} as a callback URL on the GitHub App's settings page; then sign in again.`
            : `GitHub did not authorize the sign-in (${code}). Sign in again and choose "Authorize" to see private repositories' boards.`,
          retry,
        );
      }
      const code = query.code;
      if (typeof code !== "string" || !/^[\w-]{1,256}$/.test(code)) {
        return problem(
          reply,
          400,
          "No code from GitHub",
          "GitHub did not send a sign-in code. Sign in again.",
          retry,
        );
      }

      try {
        const unreachable = () =>
          problem(
            reply,
            503,
            "GitHub could not be reached",
            `GitHub could not be reached at ${githubHost} to finish the sign-in. Wait a moment and sign in again.`,
            retry,
          );
        const exchange = await exchangeCode(github, client, code, callbackUrl(request), {
          fetch: options.fetch,
        });
        if (!exchange.ok && exchange.unreachable) return unreachable();
        if (!exchange.ok) {
          const { error, status } = exchange;
          request.log.warn({ status, error }, "sign-in: GitHub refused the code exchange");
          if (error === "bad_verification_code")
            return problem(
              reply,
              400,
              "Sign-in code not accepted",
              "GitHub did not accept the sign-in code: it works once and expires after 10 minutes. Sign in again.",
              retry,
            );
          if (error === "incorrect_client_credentials")
            return problem(
              reply,
              502,
              "Sign-in is misconfigured",
              "GitHub refused this server's client ID or secret. The operator checks GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET against the GitHub App's settings page and restarts the server.",
            );
          if (error === "redirect_uri_mismatch")
            return problem(
              reply,
              502,
              "GitHub refused the callback URL",
              `GitHub refused this server's callback URL. The operator adds ${callbackUrl(request)} as a callback URL on the GitHub App's settings page; then sign in again.`,
              retry,
            );
          return problem(
            reply,
            502,
            "GitHub did not complete the sign-in",
            `GitHub answered the sign-in with ${error}. Sign in again; if it keeps failing, the operator checks the App's OAuth settings.`,
            retry,
          );
        }
        const { token } = exchange;
        const ttl = exchange.expiresInSeconds ?? SESSION_TTL_SECONDS;

        const user = await signedInUser(github, token, { fetch: options.fetch });
        if (!user.ok && user.unreachable) return unreachable();
        if (!user.ok) {
          request.log.warn({ status: user.status }, "sign-in: GitHub's GET /user failed");
          return problem(
            reply,
            502,
            "GitHub did not say who signed in",
            `GitHub answered ${user.status} when asked who signed in. Sign in again.`,
            retry,
          );
        }
        const session = cookies.sealSession({ login: user.login, id: user.id, token }, ttl);
        void reply
          .header(
            "set-cookie",
            serializeCookie(SESSION_COOKIE, session, {
              maxAgeSeconds: Math.min(ttl, SESSION_TTL_SECONDS),
              secure,
            }),
          )
          .header("cache-control", "no-store")
          .header("referrer-policy", "no-referrer");
        request.log.info({ login: user.login }, "signed in with GitHub");
        return reply.redirect(saved.returnTo, 302);
      } catch (err) {
        request.log.warn({ message: (err as Error).message.split("\n")[0] }, "sign-in: unexpected failure");
        return problem(
          reply,
          502,
          "Sign-in did not complete",
          "Something went wrong while finishing the sign-in with GitHub. Sign in again.",
          retry,
        );
      }
    });

    scope.post("/auth/logout", { schema: { hide: true } }, (request, reply) => {
      // A sign-out posted from another site is refused (SameSite=Lax already keeps the cookie from it).
      const origin = request.headers.origin;
      if (typeof origin === "string" && origin !== "null") {
        const allowed = new Set([
          new URL(baseUrlOf(request)).origin,
          `${request.protocol}://${request.host}`,
        ]);
        if (!allowed.has(origin))
          return problem(reply, 403, "Sign-out refused", "Sign out from this site's own pages.");
      }
      // Ended on the server too: the cookie, if a client keeps it (or it was copied), is no session any more.
      configured?.sessions.endSession(request);
      void reply
        .header("set-cookie", clearCookie(SESSION_COOKIE, { secure: secureFor(request) }))
        .header("cache-control", "no-store");
      return reply.redirect("/", 303);
    });

    scope.withTypeProvider<ZodTypeProvider>().get(
      "/auth/me",
      {
        schema: {
          summary: "Who is signed in",
          description:
            "The GitHub user signed in with this browser (the session cookie set by /auth/github/login), or 401. Private repositories' boards need a signed-in user with read access.",
          security: [],
          response: {
            200: z.object({ login: z.string() }).meta({ id: "SignedInUser" }),
            401: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        void reply.header("cache-control", "private, no-store").header("vary", "cookie");
        if (!configured)
          throw new TaskScorerError(
            "unauthorized",
            "Sign in with GitHub is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SESSION_SECRET).",
          );
        const session = configured.sessions.sessionOf(request);
        if (!session)
          throw new TaskScorerError(
            "unauthorized",
            "Not signed in: open /auth/github/login to sign in with GitHub.",
          );
        return { login: session.login };
      },
    );
  });
}
