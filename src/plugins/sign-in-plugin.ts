import type { Logger } from "pino";
import type { ServiceConfig } from "../config/service-config.js";
import type { GitHubUrls } from "../github/github-oauth.js";
import { UserRepoAccess } from "../github/user-repo-access.js";
import { signInRoutes } from "../http/routes/sign-in.js";
import { SessionCookies } from "../http/session-cookie.js";
import { servicePlugin } from "./service-plugin.js";

export interface SignInPluginOptions {
  signIn: ServiceConfig["auth"]["signIn"];
  ghe: ServiceConfig["app"]["ghe"];
  publicUrl: string | undefined;
  logger: Logger;
}

/** GitHub's web and API base URLs: github.com's, or a GitHub Enterprise Server's. */
export function githubUrls(ghe: ServiceConfig["app"]["ghe"]): GitHubUrls {
  const webUrl = ghe ? `${ghe.protocol}://${ghe.host}` : "https://github.com";
  return { webUrl, apiUrl: ghe ? `${webUrl}/api/v3` : "https://api.github.com" };
}

/**
 * "Sign in with GitHub": a private repository's backlog is shown to a signed-in user GitHub lets read it. Its
 * routes answer "not configured" without settings. On the server itself, so that the session cookie a refused
 * token ends is cleared on the backlog's and the board's answers too.
 */
export const signInPlugin = servicePlugin("sign-in", async (server, options: SignInPluginOptions) => {
  const { signIn, logger } = options;
  const github = githubUrls(options.ghe);
  const sessions = signIn ? new SessionCookies(signIn.sessionSecret) : undefined;
  if (!signIn)
    logger.info(
      "sign-in with GitHub is off (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SESSION_SECRET): private repositories' boards are not shown",
    );
  await signInRoutes(server, { settings: signIn, sessions, github, publicUrl: options.publicUrl });
  server.decorate("signIn", {
    sessions,
    userRepoAccess: sessions ? new UserRepoAccess({ sessions, apiUrl: github.apiUrl }) : undefined,
    github,
  });
});
