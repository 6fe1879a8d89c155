/**
 * GitHub's OAuth web flow, the server side of "Sign in with GitHub" (a user-to-server token of the App's): the
 * code exchanged for the user's token (`POST {web}/login/oauth/access_token`), then who signed in (`GET /user`).
 * Each call has a deadline and answers a plain result, never throws; the sign-in routes turn each result into a
 * page a person can act on. Beside `user-repo-access.ts`, which uses the token this gives.
 */

/** GitHub's web (OAuth) and REST API base URLs: github.com's, or GitHub Enterprise Server's. */
export interface GitHubUrls {
  webUrl: string;
  apiUrl: string;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export const GITHUB_OAUTH_TIMEOUT_MS = 10_000;

/** The code exchange's outcome: a token (and its lifetime, when GitHub gives one), or why not. */
export type CodeExchange =
  | { ok: true; token: string; expiresInSeconds: number | undefined }
  | { ok: false; unreachable: true }
  | { ok: false; unreachable?: false; status: number; error: string };

/** Who signed in, or why GitHub did not say. */
export type SignedInUser =
  | { ok: true; login: string; id: number }
  | { ok: false; unreachable: true }
  | { ok: false; unreachable?: false; status: number };

export interface OAuthCallOptions {
  fetch?: typeof fetch | undefined;
  timeoutMs?: number | undefined;
}

/** Exchange the callback's code for the user's token. `error` is GitHub's (`bad_verification_code`, ...). */
export async function exchangeCode(
  github: GitHubUrls,
  client: OAuthClient,
  code: string,
  redirectUri: string,
  options: OAuthCallOptions = {},
): Promise<CodeExchange> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(`${github.webUrl}/login/oauth/access_token`, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "task-scorer",
      },
      body: new URLSearchParams({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code,
        redirect_uri: redirectUri,
      }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? GITHUB_OAUTH_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, unreachable: true };
  }
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof data.error === "string" || typeof data.access_token !== "string") {
    const error = typeof data.error === "string" ? data.error : `HTTP ${response.status}`;
    return { ok: false, status: response.status, error };
  }
  const expiresIn = Number(data.expires_in);
  return {
    ok: true,
    token: data.access_token,
    expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
  };
}

/** `GET /user` with the user's token: their login and id. */
export async function signedInUser(
  github: Pick<GitHubUrls, "apiUrl">,
  token: string,
  options: OAuthCallOptions = {},
): Promise<SignedInUser> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(`${github.apiUrl}/user`, {
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${token}`,
        "user-agent": "task-scorer",
      },
      signal: AbortSignal.timeout(options.timeoutMs ?? GITHUB_OAUTH_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, unreachable: true };
  }
  const user = (await response.json().catch(() => ({}))) as { login?: unknown; id?: unknown };
  if (!response.ok || typeof user.login !== "string" || typeof user.id !== "number")
    return { ok: false, status: response.status };
  return { ok: true, login: user.login, id: user.id };
}
