import { afterAll, beforeAll, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import type { Service } from "../../src/compose-service.js";
import { startFakeGitHub, type FakeGitHub, type FakeIssue } from "../helpers/fake-github.js";
import { deliver, payload, startService, installationCreated } from "../helpers/app-harness.js";
import { BROWSER_SETUP_TIMEOUT_MS, describeInChromium, launchChromium } from "../helpers/chromium.js";

/**
 * The backlog board as a maintainer meets it, in headless chromium: the App installed on a repository of a
 * stand-in GitHub, its open issues backfilled silently, and the page ranking them, filtered and sorted from
 * the keyboard without a reload, with a CSV link and the backfill's progress, under the strict CSP.
 * BOARD_SCREENSHOT=<path> saves a screenshot of the ranked board (docs/board.png is one).
 */
const DAY = 86_400_000;

/** Retries `check` on `read()` until it passes (the page updates itself) or the time is up. */
async function poll<T>(read: () => T | Promise<T>, check: (value: T) => void, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    try {
      check(value);
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Made-up issues of a small product's backlog (no real issue text), with varied ages. */
function backlogOf(n: number): FakeIssue[] {
  const shapes: [string, string][] = [
    [
      "Checkout crashes when the card is declined",
      "Steps to reproduce:\n1. Add a plan to the cart\n2. Pay with a declined test card\n\nExpected: an error message. Actual: TypeError: cannot read properties of undefined (reading 'code').\nVersion 4.2.1, Chrome 131.",
    ],
    [
      "Add CSV export of invoices",
      "Twelve enterprise customers asked for CSV export this quarter.\n\nAcceptance:\n- one row per invoice\n- UTF-8 with a header row",
    ],
    [
      "How do I rotate my API key?",
      "How can I rotate the API key of a project without downtime? I can't find where to do this in the settings.",
    ],
    [
      "Refactor the billing module",
      "The invoice totals are computed in three places; move them into one module with tests.",
    ],
    ["Docs: the webhook guide has a broken link", "The link to the signature section returns 404."],
    [
      "Dark mode for the dashboard",
      "It would be nice to have a dark mode; several users asked on the forum.",
    ],
  ];
  return Array.from({ length: n }, (_, i) => {
    const [title, body] = shapes[i % shapes.length]!;
    return {
      number: i + 1,
      title: i < shapes.length ? title : `${title} (${i + 1})`,
      body,
      created_at: ago(3 + ((i * 37) % 400)),
      updated_at: ago(1 + (i % 20)),
    };
  });
}

describeInChromium("the backlog board in a browser", () => {
  let github: FakeGitHub;
  let service: Service;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const foreign: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub();
    github.repoIssues.set("acme/widgets", backlogOf(130));
    github.repoIssues.set("acme/secret", backlogOf(5));
    github.privateRepos.add("acme/secret");
    service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http", DATA_DIR: "memory://" });
    await service.server.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(service.server.server.address() as { port: number }).port}`;
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on("request", (r) => {
      if (!r.url().startsWith(`${base}/`)) foreign.push(r.url());
    });
    // CSP violations, missing files and script errors show up as console errors. The private board's 401
    // and the bad name's 400 (on purpose) are the only failed requests expected.
    page.on("console", (m) => {
      if (m.type() === "error" && !/status of 40[01]/.test(m.text())) consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
  }, BROWSER_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await github?.close();
  });

  it("is opened from the start page, and shows the backfill's progress until every issue is ranked", async () => {
    // GitHub asks the backfill to wait 4 s (a secondary rate limit): long enough to see it running.
    github.faults.push({
      method: "GET",
      path: /^\/repos\/acme\/widgets\/issues$/,
      status: 403,
      headers: { "retry-after": "4" },
      body: { message: "You have exceeded a secondary rate limit." },
    });
    const res = await deliver(
      service,
      "installation",
      installationCreated([
        { full_name: "acme/widgets", private: false },
        { full_name: "acme/secret", private: true },
      ]),
    );
    expect(res.statusCode).toBe(200);

    await page.goto(base);
    await page.getByLabel("Repository (OWNER/NAME)").focus();
    await page.keyboard.type("acme/widgets");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/board/acme/widgets`);
    const response = await page.reload();
    expect(response!.headers()["content-security-policy"]).toMatch(
      /default-src 'none'; script-src 'self'; style-src 'self'/,
    );
    await page.evaluate("window.sameDocument = true");

    // While it runs, the page says so; it refreshes itself (same document, no reload) until done.
    await poll(
      () => page.locator("#progress-text").textContent(),
      (v) => expect(v).toMatch(/^Scoring the backlog: \d+ (of \d+ )?issues so far\.$|queued/),
      15_000,
    );
    await poll(
      () => page.locator("#progress-text").textContent(),
      (v) => expect(v).toBe("Backlog scored; new and edited issues are scored as they arrive."),
      30_000,
    );
    expect(await page.evaluate("window.sameDocument")).toBe(true);
    await page.locator("#tasks tbody tr").nth(99).waitFor();
  }, 60_000);

  it("ranks the issues by score, each with its five persona scores, kind, approval, age and a link", async () => {
    github.delayMs = 0;
    const rows = page.locator("#tasks tbody tr");
    expect(await rows.count()).toBe(100);
    const scores = (await page.locator("#tasks tbody td.score").allTextContents()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const first = rows.first();
    expect(await first.locator("td").first().textContent()).toBe("1");
    expect(await first.locator("td.personas span").count()).toBe(5);
    expect(await first.locator("td.personas").getAttribute("aria-label")).toMatch(
      /^Revenue Expert \d+, Technical Architect \d+, UX Designer \d+, Product Manager \d+, Marketing Strategist \d+$/,
    );
    expect(await first.locator("a").getAttribute("href")).toMatch(
      /^https:\/\/github\.com\/acme\/widgets\/issues\/\d+$/,
    );
    expect(await first.locator("td.age").textContent()).toMatch(/^\d+ (days|months|years)$|^1 day$/);
    expect(await page.locator("#count").textContent()).toMatch(/^130 open issues/);

    if (process.env.BOARD_SCREENSHOT) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.evaluate("window.scrollTo(0, 0)");
      await page.screenshot({ path: process.env.BOARD_SCREENSHOT });
    }

    // The rest with "Show more", ranked on from 101.
    await page.locator("#more").focus();
    await page.keyboard.press("Enter");
    await poll(
      () => rows.count(),
      (v) => expect(v).toBe(130),
    );
    expect(await rows.nth(100).locator("td").first().textContent()).toBe("101");
    expect(await page.locator("#more").isHidden()).toBe(true);
  });

  it("filters and sorts from the keyboard without a reload, keeps them in the address, and the CSV link follows", async () => {
    await page.locator("#kind").focus();
    await page.keyboard.press("b"); // "Bug", as a keyboard user picks an option
    await poll(
      async () => new Set(await page.locator("#tasks tbody td.kind").allTextContents()),
      (v) => expect(v).toEqual(new Set(["Bug"])),
    );
    expect(page.url()).toBe(`${base}/board/acme/widgets?kind=bug`);
    expect(await page.locator("#count").textContent()).toMatch(/^22 open issues match/);

    await page.locator("#sort").focus();
    await page.keyboard.press("End"); // "Oldest issue": number ascending
    await poll(
      () => page.url(),
      (v) => expect(v).toBe(`${base}/board/acme/widgets?kind=bug&sort=number`),
    );
    const numbers = (await page
      .locator("#tasks tbody tr")
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute("data-number"))))) as number[];
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

    await page.locator("#q").focus();
    await page.keyboard.type("(7)");
    await poll(
      () => page.locator("#tasks tbody tr").count(),
      (v) => expect(v).toBe(1),
    );
    expect(await page.locator("#tasks tbody a").textContent()).toBe(
      "#7 Checkout crashes when the card is declined (7)",
    );

    const csvHref = await page.locator("#csv").getAttribute("href");
    expect(csvHref).toBe("/api/repos/acme/widgets/tasks?q=%287%29&kind=bug&sort=number&format=csv");
    const csv = await page.request.get(`${base}${csvHref}`);
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^1,7,Checkout crashes when the card is declined \(7\),/);

    // Needs a human, with the space bar; cleared filters bring the whole backlog back.
    await page.locator("#q").fill("");
    await page.locator("#kind").selectOption("");
    await page.locator("#sort").selectOption("-score");
    await page.locator("#needsHuman").focus();
    await page.keyboard.press("Space");
    await poll(
      () => page.url(),
      (v) => expect(v).toBe(`${base}/board/acme/widgets?needsHuman=true`),
    );
    const flagged = await page.locator("#tasks tbody td.human").count();
    expect(await page.locator("#tasks tbody tr").count()).toBe(flagged);
    const api = await page.request.get(`${base}/api/repos/acme/widgets/tasks?needsHuman=true&limit=500`);
    expect((await api.json()).total).toBe(flagged);
    expect(await page.evaluate("window.sameDocument")).toBe(true);

    // A shared link opens as it was.
    await page.goto(`${base}/board/acme/widgets?kind=question&approved=false`);
    expect(await page.locator("#kind").inputValue()).toBe("question");
    expect(await page.locator("#approved").inputValue()).toBe("false");
    await poll(
      async () => new Set(await page.locator("#tasks tbody td.kind").allTextContents()),
      (v) => expect(v).toEqual(new Set(["Question"])),
    );
  });

  it("a private repository's board shows none of its issues, and says what is missing; a bad name is a clear 400", async () => {
    await page.goto(`${base}/board/acme/secret`);
    await page.locator("#error").waitFor();
    // Sign-in is not configured on this server: the page says so and offers no button that cannot work.
    expect(await page.locator("#error").textContent()).toMatch(
      /acme\/secret's backlog is private or unknown, and sign-in is not configured/,
    );
    expect(await page.locator("#sign-in").isHidden()).toBe(true);
    expect(await page.locator("#filters").isHidden()).toBe(true);
    expect(await page.locator("#tasks tbody tr").count()).toBe(0);

    const bad = await page.goto(`${base}/board/acme/not%20a%20repo`);
    expect(bad!.status()).toBe(400);
    expect(await page.locator("h1").textContent()).toBe("Not a repository name");
  });

  it("says the number of open issues once, and a new issue opened after the backfill counts in it (issue 33)", async () => {
    const opened = payload("issues", "opened", (p) => {
      p.repository.owner.login = "acme";
      p.repository.name = "widgets";
      p.repository.full_name = "acme/widgets";
      p.repository.private = false;
      p.issue.number = 131;
      p.issue.title = "Export times out on large invoices";
      p.issue.body = "Steps:\n1. Export 5,000 invoices\n\nActual: a 504 after 30 s.";
      p.issue.html_url = "https://github.com/acme/widgets/issues/131";
      p.sender.type = "User";
    });
    expect((await deliver(service, "issues", opened)).statusCode).toBe(200);
    await service.queue!.drain();
    await page.goto(`${base}/board/acme/widgets`);
    await poll(
      () => page.locator("#count").textContent(),
      (v) => expect(v).toMatch(/^131 open issues, /),
    );
    // The status line says the backlog is scored, with no second count that disagrees (it said 130).
    const status = (await page.locator("#status").textContent())!.replace(/\s+/g, " ").trim();
    expect(status).toBe("Backlog scored; new and edited issues are scored as they arrive.");
  });

  it("shows the author's own sentence (reading.ask) as a second line under the title, as text; none where the report has none (issue 35)", async () => {
    // Backfilled by the App: the question's body states its problem in a sentence; the CSV request has none.
    await page.goto(`${base}/board/acme/widgets?sort=number`);
    const row = (n: number) => page.locator(`#tasks tbody tr[data-number="${n}"]`);
    await row(3).waitFor();
    expect(await row(3).locator("td .ask").textContent()).toBe(
      "Asks: “How can I rotate the API key of a project without downtime?”",
    );
    expect(await row(2).locator("td .ask").count()).toBe(0);

    // Saved straight into the store: an ask that looks like markup is shown as text; a report holding an
    // escaped NUL (which jsonb refuses) still gives its ask; a null ask gives no line; CSV carries it, neutralised.
    const save = (number: number, title: string, report: unknown) =>
      service.backlogStore!.saveTask({
        repository: "acme/widgets",
        number,
        title,
        url: `https://github.com/acme/widgets/issues/${number}`,
        score: 9.9,
        approved: true,
        needsHuman: false,
        kind: "feature",
        personas: { revenue: 10, architect: 10, ux: 10, product: 10, marketing: 9 },
        report,
        contentHash: `ask-${number}`,
      });
    const markup = 'Why does <img src=x onerror="alert(1)"> break the export?';
    await save(900, "Markup in the ask (issue 35)", {
      task: "Markup in the ask (issue 35)",
      reading: { ask: markup, evidence: [{ type: "trace", quote: "a\u0000b" }] },
    });
    await save(901, "No ask (issue 35)", { task: "No ask (issue 35)", reading: { ask: null } });
    await save(902, "Formula ask (issue 35)", { reading: { ask: "=1+1 is what the total shows" } });
    await page.goto(`${base}/board/acme/widgets?q=issue+35`);
    await poll(
      () => page.locator("#tasks tbody tr").count(),
      (v) => expect(v).toBe(3),
    );
    expect(await row(900).locator("td .ask").textContent()).toBe(`Asks: “${markup}”`);
    expect(await row(900).locator("img").count()).toBe(0);
    expect(await row(900).locator("a").textContent()).toBe("#900 Markup in the ask (issue 35)");
    expect(await row(901).locator("td .ask").count()).toBe(0);
    expect(await row(902).locator("td .ask").textContent()).toBe("Asks: “=1+1 is what the total shows”");

    const csv = await page.request.get(`${base}/api/repos/acme/widgets/tasks?q=issue+35&format=csv`);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toMatch(/,created_at,ask,duplicate_of$/);
    expect(lines[1]).toMatch(
      /^1,900,.*,"Why does <img src=x onerror=""alert\(1\)""> break the export\?",\d*$/,
    );
    expect(lines[2]).toMatch(/^2,901,.*,,\d*$/);
    expect(lines[3]).toMatch(/^3,902,.*,'=1\+1 is what the total shows,\d*$/);
  });

  it("links a likely duplicate to the earlier issue, and filters to duplicates from the keyboard (issue 32)", async () => {
    // Made-up text, saved as the App saves a scored issue (the report echoes what it scored): 951 repeats 950.
    const text = {
      title: "Sync stops when the laptop sleeps (issue 32)",
      description:
        "After the laptop wakes, the sync icon spins forever and SyncWorker.resume throws QueueClosedError: queue 12 closed.",
    };
    for (const number of [950, 951])
      await service.backlogStore!.saveTask({
        repository: "acme/widgets",
        number,
        title: text.title,
        url: `https://github.com/acme/widgets/issues/${number}`,
        score: 9.8,
        approved: true,
        needsHuman: false,
        kind: "bug",
        personas: { revenue: 9, architect: 10, ux: 10, product: 10, marketing: 10 },
        report: { task: text.title, description: text.description },
        contentHash: `dup-${number}`,
      });
    await page.goto(`${base}/board/acme/widgets?q=issue+32`);
    const row = (n: number) => page.locator(`#tasks tbody tr[data-number="${n}"]`);
    await row(951).waitFor();
    expect(await row(950).locator("td .dup").count()).toBe(0);
    expect(await row(951).locator("td .dup").textContent()).toBe("Possibly the same as #950");
    expect(await row(951).locator("td .dup a").getAttribute("href")).toBe(
      "https://github.com/acme/widgets/issues/950",
    );

    await page.locator("#duplicates").focus();
    await page.keyboard.press("Space");
    await poll(
      () => page.url(),
      (v) => expect(v).toBe(`${base}/board/acme/widgets?q=issue+32&duplicates=true`),
    );
    await poll(
      async () =>
        page.locator("#tasks tbody tr").evaluateAll((rs) => rs.map((r) => r.getAttribute("data-number"))),
      (v) => expect(v).toEqual(["951"]),
    );
    expect(await page.locator("#csv").getAttribute("href")).toBe(
      "/api/repos/acme/widgets/tasks?q=issue+32&duplicates=true&format=csv",
    );
  });

  it("fetched nothing from elsewhere and broke no rule of its CSP", () => {
    expect(foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
