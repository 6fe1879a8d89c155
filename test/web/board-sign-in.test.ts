import { afterAll, beforeAll, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import type { Service } from "../../src/compose-service.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { deliver, startService, installationCreated } from "../helpers/app-harness.js";
import { BROWSER_SETUP_TIMEOUT_MS, describeInChromium, launchChromium } from "../helpers/chromium.js";

/**
 * A private repository's board in headless chromium, with "Sign in with GitHub" configured: the visitor
 * is sent to the stand-in GitHub's authorize page and back, sees the backlog only when GitHub says they
 * can read the repository, and can sign out.
 */
describeInChromium("a private repository's board, signed in with GitHub", () => {
  let github: FakeGitHub;
  let service: Service;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub();
    github.repoIssues.set(
      "acme/secret",
      Array.from({ length: 12 }, (_, i) => ({
        number: i + 1,
        title: i % 2 ? `Add SSO login for teams ${i + 1}` : `Export fails with a timeout ${i + 1}`,
        body: i % 2 ? "Three customers asked for SAML." : "Steps:\n1. Export\n2. Wait\n\nError: ETIMEDOUT",
      })),
    );
    github.privateRepos.add("acme/secret");
    github.grantAccess("mona", "acme/secret");
    service = await startService({
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      DATA_DIR: "memory://",
      GITHUB_CLIENT_ID: github.oauthClient.id,
      GITHUB_CLIENT_SECRET: github.oauthClient.secret,
      SESSION_SECRET: "q3Xo9vJr2mLk8ZpT1wYb4NcE7hUa6sDf0gRi5tKe",
    });
    await service.server.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(service.server.server.address() as { port: number }).port}`;
    await deliver(
      service,
      "installation",
      installationCreated([{ full_name: "acme/secret", private: true }]),
    );
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
  }, BROWSER_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await github?.close();
  });

  it("signed out, a private repository and one the App never scored get the same true sentence, and the sign-in (issue 33)", async () => {
    const said: string[] = [];
    for (const name of ["acme/nothing-here", "acme/secret"]) {
      await page.goto(`${base}/board/${name}`);
      await page.locator("#error").waitFor();
      said.push((await page.locator("#error").textContent())!.replaceAll(name, "NAME"));
      expect(await page.locator("#error").textContent()).toBe(
        `No backlog here: the App has not scored a public repository named ${name}. If it is private, sign in with GitHub to see it (/auth/github/login?return_to=/board/${name}).`,
      );
      expect(await page.getByRole("link", { name: "Sign in with GitHub" }).isVisible()).toBe(true);
      expect(await page.locator("#tasks tbody tr").count()).toBe(0);
      const api = await page.request.get(`${base}/api/repos/${name}/tasks`);
      expect(api.status()).toBe(401);
      expect((await api.json()).error.code).toBe("unauthorized");
    }
    expect(said[0]).toBe(said[1]);
  });

  it("signs in through GitHub and comes back to the board, which then lists the issues", async () => {
    github.signedInUser = { login: "mona", id: 7 };
    await page.goto(`${base}/board/acme/secret?kind=bug`);
    const signIn = page.getByRole("link", { name: "Sign in with GitHub" });
    await signIn.waitFor();
    expect(await page.locator("#tasks tbody tr").count()).toBe(0);
    await signIn.focus();
    await page.keyboard.press("Enter");
    // GitHub's authorize page sends the browser back to the callback, which returns to the same board.
    await page.waitForURL(`${base}/board/acme/secret?kind=bug`);
    await page.locator("#tasks tbody tr").first().waitFor();
    expect(await page.locator("#who").textContent()).toBe("Signed in as mona");
    expect(new Set(await page.locator("#tasks tbody td.kind").allTextContents())).toEqual(new Set(["Bug"]));
    const cookies = await browser.context.cookies(base);
    const session = cookies.find((c) => c.httpOnly);
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  });

  it("signing out returns to the start page, and the board asks to sign in again", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/board/acme/secret`);
    await page.getByRole("link", { name: "Sign in with GitHub" }).waitFor();
    expect(await page.locator("#tasks tbody tr").count()).toBe(0);
  });

  it("a user GitHub says cannot read the repository sees no issues, as if it did not exist", async () => {
    github.signedInUser = { login: "eve", id: 8 };
    await page.getByRole("link", { name: "Sign in with GitHub" }).click();
    await page.waitForURL(`${base}/board/acme/secret`);
    await page.locator("#error").waitFor();
    expect(await page.locator("#error").textContent()).toMatch(/has no backlog for acme\/secret/);
    expect(await page.locator("#who").textContent()).toBe("Signed in as eve");
    expect(await page.locator("#tasks tbody tr").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
