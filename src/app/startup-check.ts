import type { Probot } from "probot";
import type { Logger } from "pino";

/**
 * APP_STARTUP_CHECK: ask GitHub who we are (GET /app, signed with the App's JWT) and log the App's
 * name, or why it failed. Informational: the REST API starts either way, but a wrong APP_ID or key
 * is named here instead of in every delivery's log.
 */
export async function checkAppIdentity(probot: Probot, logger: Logger, timeoutMs = 10_000): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const octokit = await probot.auth();
    const { data } = await octokit.request("GET /app", {
      request: { signal: controller.signal, retries: 0 },
    });
    const app = data as { name?: string; slug?: string; html_url?: string } | null;
    logger.info(
      { app: app?.name, slug: app?.slug, url: app?.html_url },
      `GitHub App check: authenticated as "${app?.name ?? "unknown"}"`,
    );
    return true;
  } catch (err) {
    const status = (err as { status?: number }).status;
    const reason =
      status === 401
        ? "GitHub refused the App's token (401): APP_ID and PRIVATE_KEY do not belong to the same App, or the key was revoked"
        : status === 404
          ? "GitHub has no App with this APP_ID (404)"
          : status
            ? `GitHub answered ${status}`
            : controller.signal.aborted
              ? `GitHub did not answer within ${timeoutMs / 1000} s`
              : `GitHub could not be reached (${(err as Error).message.split("\n")[0]})`;
    logger.error({ status }, `GitHub App check failed: ${reason}`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
