import { afterAll, beforeAll, expect, it } from "@jest/globals";
import pino from "pino";
import type { Page } from "playwright-core";
import { composeService, type Service } from "../../src/compose-service.js";
import { BROWSER_SETUP_TIMEOUT_MS, describeInChromium, launchChromium } from "../helpers/chromium.js";
import { loadServiceConfig } from "../../src/config/service-config.js";
import { keyedServer, type KeyedServer } from "../helpers/keyed-server.js";

/**
 * The try-it page as a person uses it, in headless chromium: keyboard only, served by the same
 * process, nothing fetched from anywhere else, nothing blocked by the page's own CSP.
 * TRY_IT_SCREENSHOT=<path> saves a screenshot of the scored report.
 */
describeInChromium("the try-it page in a browser", () => {
  let service: Service;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const foreign: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    service = await composeService(loadServiceConfig({ SCORER: "offline" }), {
      logger: pino({ level: "silent" }),
    });
    await service.server.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(service.server.server.address() as { port: number }).port}`;
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on("request", (r) => {
      if (!r.url().startsWith(`${base}/`)) foreign.push(r.url());
    });
    // CSP violations, missing files and script errors show up as console errors; the API's own 400s
    // (bad input, on purpose) are the only ones expected.
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().includes("status of 400")) consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
  }, BROWSER_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("scores a task typed and submitted with the keyboard, and shows five persona cards with the consensus", async () => {
    const response = await page.goto(base);
    expect(response!.headers()["content-security-policy"]).toMatch(/default-src 'none'; script-src 'self'/);

    await page.getByLabel("Title").focus();
    await page.keyboard.type("Add Stripe checkout so teams can upgrade to Pro");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("description");
    await page.keyboard.type(
      "Problem: teams on the free plan cannot pay. Acceptance criteria: a checkout page, webhooks update the plan.",
    );
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("score-button");
    await page.keyboard.press("Enter");

    const cards = page.locator("#personas article");
    await cards.nth(4).waitFor();
    expect(await cards.count()).toBe(5);
    const texts = await cards.allTextContents();
    const names = [
      "Revenue Expert",
      "Technical Architect",
      "UX Designer",
      "Product Manager",
      "Marketing Strategist",
    ];
    const icons = ["💼", "🏗️", "🎨", "📊", "📢"];
    texts.forEach((text, i) => {
      expect(text).toContain(icons[i]);
      expect(text).toContain(names[i]);
      expect(text).toMatch(/([1-9]|10)\/10/);
    });
    for (const reasoning of await page.locator("#personas .reasoning").allTextContents())
      expect(reasoning.length).toBeGreaterThan(20);

    // The page shows what the API returned for the same task.
    const api = (await (
      await fetch(`${base}/score-task`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          task: "Add Stripe checkout so teams can upgrade to Pro",
          description:
            "Problem: teams on the free plan cannot pay. Acceptance criteria: a checkout page, webhooks update the plan.",
        }),
      })
    ).json()) as { consensus: { approved: boolean }; expertScores: { score: number }[] };
    texts.forEach((text, i) => expect(text).toContain(`${api.expertScores[i]!.score}/10`));
    const consensus = await page.locator("#consensus").textContent();
    expect(consensus).toContain(api.consensus.approved ? "Approved" : "Not approved");
    const conditions = await page.locator("#conditions li").allTextContents();
    expect(conditions).toHaveLength(3);
    expect(conditions[0]).toMatch(/^[✅❌] Average/);
    expect(conditions[1]).toMatch(/^[✅❌] Lowest score/);
    expect(conditions[2]).toMatch(/^[✅❌] \d of 5 personas score 7 or more \(3 needed\)/);

    if (process.env.TRY_IT_SCREENSHOT)
      await page.screenshot({ path: process.env.TRY_IT_SCREENSHOT, fullPage: true });
    expect(foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("shows the API's own error message for a bad input", async () => {
    await page.goto(base);
    const title = "x".repeat(300);
    await page.getByLabel("Title").fill(title);
    await page.getByRole("button", { name: "Score the task" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const api = (await (
      await fetch(`${base}/score-task`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task: title, description: "" }),
      })
    ).json()) as { error: { message: string } };
    expect(await alert.textContent()).toBe(api.error.message);
    expect(await page.locator("#report").isHidden()).toBe(true);

    await page.getByLabel("Title").fill("   ");
    await page.getByLabel("Title").press("Enter");
    await page.waitForFunction(`document.getElementById("error")?.textContent?.includes("empty")`);
    expect(consoleErrors).toEqual([]);
  });

  it("serves Swagger UI at /docs from this server", async () => {
    const res = await page.goto(`${base}/docs`);
    const csp = res!.headers()["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https:|upgrade-insecure-requests/);
    await page.getByText("/score-task").first().waitFor();
    expect(foreign).toEqual([]);
  });

  it("reports the CSV task a new user tried with its demand and acceptance quoted, and personas that differ", async () => {
    await page.goto(base);
    await page.getByLabel("Title").fill("Add CSV export of reports");
    await page
      .locator("#description")
      .fill("Twelve enterprise customers asked for CSV export this quarter. Acceptance: one row per task.");
    await page.locator("#score-button").click();
    await page.locator("#personas article").nth(4).waitFor();
    expect(await page.locator("#consensus .reading").textContent()).toMatch(
      /^Read as an enhancement request/,
    );
    const evidence = await page.locator("#consensus .evidence").allTextContents();
    expect(evidence).toEqual([
      "demand: “Twelve enterprise customers asked for CSV export this quarter.”",
      "acceptance: “Acceptance: one row per task.”",
    ]);
    const reasoning = (await page.locator("#personas .reasoning").allTextContents()).join(" ");
    expect(reasoning).toContain("Demand: “Twelve enterprise customers asked");
    expect(reasoning).not.toMatch(/no evidence of demand|no count of who is asking|no acceptance criteria/i);
    const scores = await page.locator("#personas .score").allTextContents();
    expect(new Set(scores).size).toBeGreaterThan(1);
  });

  it("shows the author's ask first in the consensus, and no 'Asks' line where the text has none", async () => {
    await page.goto(base);
    await page.getByLabel("Title").fill("CSV export");
    await page
      .locator("#description")
      .fill("Hi team,\n\nPlease add a CSV export of reports, our accountants re-type them by hand.");
    await page.locator("#score-button").click();
    await page.locator("#personas article").nth(4).waitFor();
    const first = page.locator("#consensus > :first-child");
    expect(await first.getAttribute("class")).toBe("ask");
    expect(await first.textContent()).toBe(
      "Asks: “Please add a CSV export of reports, our accountants re-type them by hand.”",
    );
    await page.locator("#description").fill("Version 2.3.1 on Ubuntu 22.04.");
    await page.locator("#score-button").click();
    await page.locator("#consensus .ask").waitFor({ state: "detached" });
    expect(await page.locator("#consensus").textContent()).not.toContain("Asks:");
  });

  it("has no key field on an open server", async () => {
    await page.goto(base);
    expect(await page.locator("#key-field").isHidden()).toBe(true);
  });
});

describeInChromium("the try-it page with AUTH=keys", () => {
  let keyed: KeyedServer;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    keyed = await keyedServer();
    await keyed.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(keyed.app.server.address() as { port: number }).port}`;
    browser = await launchChromium();
  }, BROWSER_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await keyed?.close();
  });

  it("asks for an API key, says when it is missing, scores with it, and keeps it nowhere but the page", async () => {
    const account = await keyed.store.createAccount("try-it", "free");
    const { key } = await keyed.store.createKey(account.id, ["score"]);
    const page = await browser.context.newPage();
    await page.goto(base);
    const keyField = page.getByLabel("API key");
    expect(await keyField.isVisible()).toBe(true);
    expect(await keyField.getAttribute("type")).toBe("password");

    await page.getByLabel("Title").fill("Add CSV export of reports");
    await page.locator("#score-button").click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/needs a key/);

    await keyField.fill(key);
    await page.locator("#score-button").click();
    await page.locator("#personas article").nth(4).waitFor();
    expect(await page.locator("#personas article").count()).toBe(5);
    const stored = await page.evaluate(
      "JSON.stringify([Object.values(localStorage), Object.values(sessionStorage), document.cookie])",
    );
    expect(stored).not.toContain(key);
    await page.close();
  });
});
