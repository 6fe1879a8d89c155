import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { describeUnless } from "./skip.js";

/** Debian's chromium (`apt-get install chromium`); no browser is downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);

/** `describe` when chromium is installed; otherwise the block is skipped and says why. */
export function describeInChromium(name: string, fn: () => void): void {
  describeUnless(
    hasChromium
      ? undefined
      : `${CHROMIUM_PATH} is absent. Install Debian's chromium (apt-get install -y chromium) to run the browser tests; CI does (.ci/run).`,
    name,
    fn,
  );
}

/**
 * For a set-up that launches chromium (and starts a service): chromium's start alone took over 20 s, jest's
 * default, once on two cores busy with the rest of CI (.ci/run runs the Node 24 suites and the smoke runs beside).
 */
export const BROWSER_SETUP_TIMEOUT_MS = 60_000;

/** A headless chromium with a fresh profile and no background traffic (updates, sync, field trials). */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "task-scorer-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport: { width: 1100, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
