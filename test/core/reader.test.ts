import { describe, expect, it } from "@jest/globals";
import { DEFAULT_APPROVAL_POLICY, evaluateApproval } from "../../src/core/approval.js";
import { readEvidence, type EvidenceType } from "../../src/core/offline/read-evidence.js";
import { readReading } from "../../src/core/offline/read-reading.js";
import { readStructure } from "../../src/core/offline/read-structure.js";
import { authorSentences } from "../../src/core/offline/segments.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import { ReadingSchema } from "../../src/core/reading.schema.js";

/** What the reader finds, with the author's words, and what the personas then say. Cases in our own words. */
const types = (title: string, body: string) => readEvidence(title, body).map((e) => e.type);
const quoteOf = (title: string, body: string, type: EvidenceType) =>
  readEvidence(title, body).find((e) => e.type === type)?.quote;

describe("the CSV task a new user tried on the start page", () => {
  const task = "Add CSV export of reports";
  const description =
    "Twelve enterprise customers asked for CSV export this quarter. Acceptance: one row per task.";
  const verdicts = scoreOffline({ task, description });
  const reasoning = verdicts.map((v) => v.reasoning).join(" ");

  it("reads the demand and the acceptance criteria, quoting the author", () => {
    const reading = readReading(task, description);
    expect(reading.kind).toBe("feature");
    expect(reading.evidence).toEqual([
      { type: "demand", quote: "Twelve enterprise customers asked for CSV export this quarter." },
      { type: "acceptance", quote: "Acceptance: one row per task." },
    ]);
    expect(ReadingSchema.parse(reading)).toEqual(reading);
  });

  it("never says the demand or the acceptance criteria are missing, and quotes them", () => {
    expect(reasoning).not.toMatch(/no evidence of demand|no count of who is asking|no acceptance criteria/i);
    expect(reasoning).toContain("Demand: “Twelve enterprise customers asked for CSV export this quarter”");
    expect(reasoning).toContain("Acceptance: “Acceptance: one row per task”");
    // The same words are quoted by two personas at most.
    expect(reasoning.split("Twelve enterprise customers").length - 1).toBeLessThanOrEqual(2);
  });

  it("gets five perspectives that differ", () => {
    expect(new Set(verdicts.map((v) => v.score)).size).toBeGreaterThan(1);
  });
});

describe("evidence the old reader missed", () => {
  it.each([
    ["Twelve customers asked for it last month.", "demand"],
    ["About forty integrators depend on this endpoint.", "demand"],
    ["It has 312 votes on the forum.", "demand"],
    ["Done when: the export opens in Excel.", "acceptance"],
    ["AC:\n1. every admin action is logged\n2. logs kept a year", "acceptance"],
    ["Success looks like: finance stops copying tables.", "acceptance"],
    ["Requirements:\n- one row per task\n- UTF-8", "acceptance"],
    ["- [ ] export button\n- [ ] one row per task", "acceptance"],
    ["```\npanic: runtime error: slice bounds [9:4] reversed\n```", "trace"],
    ["thread 'main' panicked at 'index out of bounds', src/lib.rs:10:5", "trace"],
    ["  File \"tool.py\", line 12, in main\n    run()\nKeyError: 'rows'", "trace"],
    ["Steps to reproduce\n1. Open settings\n2. Click save", "steps"],
    ["It crashes on save. Steps: 1. Open settings 2. Click save.", "steps"],
    ["La aplicación se cierra. Pasos: 1. Abrir informe 2. Exportar PDF.", "steps"],
    ["复现步骤：\n1. 打开报告\n2. 导出 PDF", "steps"],
    ["Expected: the file is saved\nActual: nothing happens", "expected_actual"],
    ["Running on Node 20.11 with pnpm 9.1", "versions"],
    ["Visitors see USD prices. Expected: EUR prices. Actual: USD everywhere.", "expected_actual"],
    ["Expected: saved. Actual: it crashes.", "expected_actual"],
    ["![the broken dialog](https://example.com/a.png)", "screenshot"],
  ] as [string, EvidenceType][])("%j gives %s", (body, type) => {
    expect(types("A task", body)).toContain(type);
  });

  it("reads a stack frame's file and line as no version ('Store.java:88' is not Java 88)", () => {
    const d =
      "The sync fails:\n\n    at com.acme.sync.Store.flush(Store.java:88)\n    at com.acme.sync.Job.run(Job.java:41)";
    expect(readReading("Sync fails on flush", d).evidence.map((e) => e.type)).not.toContain("versions");
    expect(readReading("Sync fails", "Running Java 17 on Debian.").evidence.map((e) => e.type)).toContain(
      "versions",
    );
  });

  it("never says steps are missing when they are written on one line", () => {
    const body =
      "Cuando exporto un informe a PDF la aplicación se cierra. Pasos: 1. Abrir informe 2. Exportar PDF.";
    const architect = scoreOffline({ task: "Error al exportar PDF", description: body }).find(
      (v) => v.persona === "architect",
    )!;
    expect(quoteOf("Error al exportar PDF", body, "steps")).toBe("1. Abrir informe 2. Exportar PDF.");
    expect(architect.reasoning).not.toMatch(/I found no steps/);
  });

  it("never claims steps are missing: the steps finder's recall (0.86) is below the 0.95 an absence needs", () => {
    const all = (task: string, description: string) =>
      scoreOffline({ task, description })
        .map((v) => v.reasoning)
        .join(" ");
    expect(all("Export crashes the app", "Exporting any report to PDF closes the app at once.")).not.toMatch(
      /found no steps|no steps to reproduce/i,
    );
    expect(all("Old tokens still work after a password change", "")).not.toMatch(/found no steps/i);
  });

  it("reads a procedure written as one sentence under a steps heading, and not a single action", () => {
    const body = "### Steps to reproduce\n\nOpen the export dialog, pick two reports, then press Export.";
    expect(quoteOf("Export fails", body, "steps")).toBe(
      "Open the export dialog, pick two reports, then press Export.",
    );
    expect(types("Export fails", "### Steps to reproduce\n\nIt happens on every export.")).not.toContain(
      "steps",
    );
  });

  it('a count of something else is not demand: "two projects as different users" counts projects', () => {
    expect(
      types(
        "Delete removes other projects",
        "Steps: 1. Create two projects as different users 2. Delete one.",
      ),
    ).not.toContain("demand");
    expect(types("Add SSO", "Three of our largest customers require SSO.")).toContain("demand");
  });

  it("quotes words, not markup: a heading's marks are left out", () => {
    expect(
      quoteOf("Add bulk edit", "## Acceptance criteria\n- select many tasks\n- change all", "acceptance"),
    ).toBe("Acceptance criteria - select many tasks");
    expect(quoteOf("Add export", "**Acceptance:** one row per task", "acceptance")).toBe(
      "Acceptance: one row per task",
    );
    expect(types("Fix the office", "The AC in the office is broken.")).not.toContain("acceptance");
  });

  it("says a claim of value is unsupported once per reasoning", () => {
    const verdicts = scoreOffline({
      task: "Revolutionary AI assistant",
      description: "This game-changer will 10x our revenue. Must-have.",
    });
    for (const v of verdicts)
      expect(v.reasoning.match(/claims of value/gi)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it("an XSS payload quoted in prose is not a screenshot", () => {
    expect(
      types("XSS in the preview", "Posting <img src=x onerror=alert(1)> in a comment runs the script."),
    ).not.toContain("screenshot");
    expect(types("Broken layout", '<img width="300" src="https://example.com/a.png">')).toContain(
      "screenshot",
    );
  });

  it("a ticked one-word checklist is a pull request template's, not acceptance criteria; a plan's items are", () => {
    expect(types("Add retries", "Adds retries.\n\n- [x] tests\n- [x] docs")).not.toContain("acceptance");
    expect(types("Remove deprecated fields", "- [ ] `Item.type`\n- [ ] `Item.status`")).toContain(
      "acceptance",
    );
  });

  it("a rate of requests is load, not demand; requests people made are demand", () => {
    expect(types("Rate limit the API", "Some clients send 10k requests per minute.")).not.toContain("demand");
    expect(types("Add export", "We got 200 feature requests for it.")).toContain("demand");
    expect(types("Add export", "20 customers a month ask for this.")).toContain("demand");
    // A list put out of the task is no criteria; the same list as the plan is.
    const plan = "- [ ] Export the totals row\n- [ ] Export the notes column";
    expect(types("Report export", `Out of scope for now:\n${plan}`)).not.toContain("acceptance");
    expect(types("Report export", `### Moved out\n\n${plan}`)).not.toContain("acceptance");
    expect(types("Report export", `Plan:\n${plan}`)).toContain("acceptance");
    // A version is no count: "Debian 12.04 ships" holds no 12.04 people; "1.5k downloads" is a count.
    expect(types("Signing keys", "Debian 12.04 installs openssl 3.1 by default.")).not.toContain("demand");
    expect(types("Add export", "The plugin has 1.5k downloads a week.")).toContain("demand");
    // Requests a server gets are load, however many; requests people make are demand.
    expect(types("Gateway stalls", "It stalls under hundreds of parallel upload requests.")).not.toContain(
      "demand",
    );
    expect(types("Add export", "We have had dozens of requests for a PDF export.")).toContain("demand");
    // The audience's word before a noun only qualifies it: two client tests are tests.
    expect(types("Fix a flaky build", "Two of the nightly client tests fail on ARM runners.")).not.toContain(
      "demand",
    );
    expect(types("Fix a flaky build", "Two of our clients reported the failure on ARM.")).toContain("demand");
    // Machines, identifiers and one person are no demand.
    for (const body of [
      "Last week 3 of 5 cache servers restarted at once.",
      "The setup code for the two HTTP clients is the same.",
      "Since PROJ-40512 the storage client can use TLS.",
      "The pool then serves only 1 user at a time.",
      "Both accounts with and without quotas are affected on Gen 2 storage.",
    ])
      expect(types("Tidy the connection setup", body)).not.toContain("demand");
  });

  it("an error late in a line is quoted from where it starts", () => {
    const body =
      "On Safari 17.1 (macOS 14.2), clicking Log in does nothing. Console shows: TypeError: undefined is not an object";
    expect(quoteOf("Log in does nothing", body, "trace")).toBe(
      "Console shows: TypeError: undefined is not an object",
    );
  });

  it("quotes the author's own words, not the template's prompts", () => {
    const body = "<!-- Describe how many users need this -->\nTwelve customers asked for it.";
    expect(quoteOf("A task", body, "demand")).toBe("Twelve customers asked for it.");
  });

  it("a quote shows what was found even late in a long line: the reasoning shows the version, not only the opening", () => {
    const body =
      "Expected: the upload starts. Actual: the tab crashes with a blank page and nothing in the log. Chrome 120 on macOS 14.";
    const versions = quoteOf("Upload crashes", body, "versions")!;
    expect(versions).toBe("Chrome 120 on macOS 14.");
    const architect = scoreOffline({ task: "Upload crashes", description: body }).find(
      (v) => v.persona === "architect",
    )!;
    expect(architect.reasoning).toContain("Versions: “Chrome 120 on macOS 14”");
    const long =
      "We looked into this for a long while with the whole team and we finally agreed on one thing that matters here: three hundred customers asked for it.";
    expect(quoteOf("Add export", long, "demand")).toMatch(/^….*three hundred customers asked for it\.$/);
  });

  it("does not read a standard's number as a version, or a single word as demand", () => {
    expect(types("Support currencies", "Prices should use ISO 4217 codes.")).not.toContain("versions");
    expect(types("Add export", "One user mentioned it once.")).not.toContain("demand");
  });

  it("reads error output the author announces in prose, on the next line, in the block under it or in quotes; quotes the output, not the announcement", () => {
    expect(
      quoteOf(
        "Softmax fails on the GPU delegate",
        "Running any model with softmax on the phone, I encounter an error:\nGpuDelegate Invoke: Failed to enqueue kernel - Invalid work group size.",
        "trace",
      ),
    ).toBe("GpuDelegate Invoke: Failed to enqueue kernel - Invalid work group size.");
    expect(
      quoteOf(
        "Benchmark fails",
        "Once the NPU is enabled, the tool prints this error message:\n```\nINIT OK\nUnsupported op routed back to the host.\nProfiling failed.\n```",
        "trace",
      ),
    ).toBe("Profiling failed.");
    expect(
      quoteOf(
        "Cannot create the transaction",
        'Instead, pressing Submit shows me this error: "Payment needs a billing profile, add one before paying."',
        "trace",
      ),
    ).toMatch(/^Instead, pressing Submit shows me this error: "Payment needs/);
    // A compiler's diagnostic, with the path and position before "error".
    expect(
      types("Build fails", "Output:\n1>src\\core\\registry.hpp(112,9): error C2065: Symbol is undeclared"),
    ).toContain("trace");
    expect(types("Build fails", "src/main.c:12:5: error: unknown type name 'fn'")).toContain("trace");
  });

  it("names a screenshot by its alt text, never by its markup", () => {
    const ux = (description: string) =>
      scoreOffline({ task: "Export dialog shows an empty list", description }).find(
        (v) => v.persona === "ux",
      )!.reasoning;
    const bare = ux(
      'Open the export dialog with two reports saved.\n\n<img width="612" alt="image" src="https://example.com/a.png">',
    );
    expect(bare).toContain("A picture is attached, for “Export dialog shows an empty list”.");
    expect(bare).not.toContain("<img");
    const described = ux(
      "Open the export dialog with two reports saved.\n\n![The export dialog with an empty list](https://example.com/a.png)",
    );
    expect(described).toContain("What people see: “The export dialog with an empty list”");
  });

  it("does not take a mention of errors for error output", () => {
    // A list of error codes a feature handles, a picture of the error, and prose after the announcement.
    expect(
      types(
        "Retry rate-limited calls",
        "The client should resend any call that fails with one of the error codes below:\n- `too_many_calls` (HTTP 429)\n- `busy` (HTTP 503)",
      ),
    ).not.toContain("trace");
    expect(
      types(
        "Save fails",
        "2. Notice the following error: ![error](https://example.com/error.png)\n3. Close the tab",
      ),
    ).not.toContain("trace");
    expect(
      types("Save fails", "It results in the following error:\nHowever, this works:\n```js\nsave(doc)\n```"),
    ).not.toContain("trace");
    expect(
      types("Show errors", 'The error message should say "the file is too large" in plain words.'),
    ).not.toContain("trace");
  });

  it("reads expected versus actual said in prose: what it shows, then what it should be", () => {
    const body =
      "The loss ignores `alpha`. The results are:\n```\n0.6932\n0.6932\n```\n`loss1` should be `0.5117` with alpha 0.25.";
    expect(quoteOf("Focal loss ignores alpha", body, "expected_actual")).toBe(
      "`loss1` should be `0.5117` with alpha 0.25.",
    );
    // What should happen, with nothing shown of what happens, is not the pair.
    expect(types("Add dark mode", "The page should be dark after 8 pm.")).not.toContain("expected_actual");
  });
});

describe("what a reasoning calls template text", () => {
  const product = (title: string, body: string) =>
    scoreOffline({ task: title, description: body }).find((v) => v.persona === "product")!.reasoning;
  const unanswered = (n: number) =>
    Array.from({ length: n }, (_, i) => `### Field ${i + 1}\n\n_No response_\n`).join("\n");

  it("is never the author's own sections: headings the author wrote under are structure, not template", () => {
    const body = [
      "## Summary",
      "Adds SAML 2.0 single sign-on for enterprise workspaces, configurable per workspace.",
      "## Why",
      "Three of our largest customers require SSO before renewing; they are 40% of revenue.",
      "## Changes",
      "- new /auth/saml endpoints",
      "- admin settings page for IdP metadata",
      "## Testing",
      "```",
      "npm test -- saml",
      "```",
    ].join("\n");
    const s = readStructure("Add SAML SSO", body, { spam: false, trackerNote: false });
    expect(s.promptShare).toBe(0);
    expect(s.templateShare).toBeGreaterThan(0.3);
    expect(product("Add SAML SSO", body)).not.toMatch(/template text/);
  });

  it('is not the author\'s own "Provide a …" request; it is a template\'s "Provide a short code sample"', () => {
    const request =
      "- Provide a PodDisruptionBudget manifest so cluster operators keep workloads up during drains";
    expect(
      readStructure("Provide a PodDisruptionBudget manifest", request, { spam: false, trackerNote: false })
        .promptShare,
    ).toBe(0);
    const prompt =
      "### Example\n\nProvide a short code sample that reproduces the problem.\n\n### Notes\n\n_No response_";
    expect(
      readStructure("Crash on save", prompt, { spam: false, trackerNote: false }).promptShare,
    ).toBeGreaterThan(0.5);
  });

  it("is not said of a template whose author pasted output under it, however few the words", () => {
    const body = `${unanswered(6)}\n### Current behavior?\n\npython train.py --data train.npy\n\n### Standalone code\n\n\`\`\`shell\nSegmentation fault\n\`\`\``;
    const said = scoreOffline({ task: "Segmentation fault", description: body })
      .map((v) => v.reasoning)
      .join(" ");
    expect(said).not.toMatch(/unfilled issue template/);
    expect(readReading("Segmentation fault", body).evidence.map((e) => e.type)).toContain("trace");
  });

  it("a code block or a picture answers the heading above it; a paragraph weighs as its text", () => {
    const shot =
      "### Issue details\n\nThe shortcut does not open the menu.\n\n### Proposed solution\n\n![mock](https://example.com/a.png)";
    expect(
      readStructure("Add a shortcut", shot, { spam: false, trackerNote: false }).promptShare,
    ).toBeLessThan(0.34);
    const example = "E.g.:\n\n```ts\nreturn texts.map((t) => t.trim()).join('\\n') + '\\n';\n```";
    expect(product("Allow multiline templates", example)).not.toMatch(/template text/);
    const pr =
      "Webhook deliveries fail for good on the first 5xx. This adds up to five retries with exponential backoff and jitter.\n\n- [x] tests\n- [x] docs";
    expect(product("Add retries to the webhook sender", pr)).not.toMatch(/template text/);
  });

  it("is not said even where most of the description is the template's, unanswered: a share is a judgement", () => {
    // Fresh readers took "much of the description is template text" for false in 4 reports of 2 samples (a
    // filled-in form, three lines of spam, one line and two links): the structure still counts it, the text says
    // nothing of it.
    const body = `### What happened\n\nThe export button does nothing on Firefox.\n\n${unanswered(8)}`;
    const s = readStructure("Export button does nothing", body, { spam: false, trackerNote: false });
    expect(s.promptShare).toBeGreaterThan(0.6);
    expect(product("Export button does nothing", body)).not.toMatch(/template text/);
  });
});

describe("the language and the themes the reading names", () => {
  it("tells French, German, Spanish and Portuguese from English by their common words", () => {
    expect(
      readReading("Ajouter l'export CSV", "Plusieurs clients nous ont demandé un export CSV des rapports.")
        .language,
    ).toBe("fr");
    expect(
      readReading("Absturz beim Speichern", "Wenn ich eine Datei speichere, stürzt die App ab.").language,
    ).toBe("de");
    expect(
      readReading("Error al exportar", "Cuando exporto un informe la aplicación se cierra.").language,
    ).toBe("es");
    expect(readReading("Erro ao salvar", "Quando salvo o arquivo o app fecha.").language).toBe("pt");
    expect(readReading("Crash on save", "When I save a file the app closes.").language).toBe("en");
    // A hash's letters are no words: "e" and "ce" in a commit id are not Portuguese or French.
    const form = "ADD DETAILS HERE\n\nBuild: 3.2.0\nCommit: 5e0de7a1e93c0de2e4b6a8e0de7c1a9e3f02de";
    expect(readReading("Crash on save", form).language).toBe("en");
  });

  it("a theme is named only where the description says it, in the author's words; never from a title word", () => {
    const refactor = scoreOffline({
      task: "Refactor the billing module into smaller services",
      description: "No behaviour change.",
    });
    for (const v of refactor) expect(v.reasoning).not.toMatch(/payments|taking money/);
    const feature = scoreOffline({
      task: "Add annual billing",
      description: "Several customers asked to pay yearly instead of monthly.",
    });
    expect(feature.find((v) => v.persona === "revenue")!.reasoning).toMatch(
      /mentions “to pay”: “Several customers asked to pay yearly instead of monthly”/,
    );
  });

  it("an assistant is an AI feature only as one: Home Assistant is not", () => {
    const said = (task: string) =>
      scoreOffline({ task, description: "" })
        .map((v) => v.reasoning)
        .join(" ");
    expect(said("Home Assistant 2023.3 refuses integrations without a domain field")).not.toMatch(
      /AI features/,
    );
    expect(said("Add an AI assistant to the editor")).not.toMatch(/AI features/);
    const described = scoreOffline({
      task: "Add an AI assistant to the editor",
      description: "An ai assistant in the editor could explain the selected code.",
    })
      .map((v) => v.reasoning)
      .join(" ");
    // Named by the author's word, not the area's label (a label for another word is a claim the text may not make).
    expect(described).toMatch(/mentions “ai assistant”/);
    const named = scoreOffline({
      task: "Sync with Home Assistant",
      description: "My lights are managed in Home Assistant and I want the app to read them.",
    })
      .map((v) => v.reasoning)
      .join(" ");
    expect(named).not.toMatch(/AI features/);
  });

  it("a word inside a longer theme term is not a second theme: a memory leak is not a security leak", () => {
    const verdicts = scoreOffline({
      task: "Memory leak in the worker after 24h",
      description: "There is a memory leak in the worker: RSS grows to 3 GB over a day.",
    });
    expect(verdicts.some((v) => /memory leak/.test(v.reasoning))).toBe(true);
    expect(verdicts.every((v) => !/security and privacy/.test(v.reasoning))).toBe(true);
  });
});

describe("kinds read from the title's words", () => {
  it("a pull request that adds a unit test is not a test post", () => {
    const body = "Fixes #123.\n\nThe parser crashed on empty input. Added a guard and a test.";
    expect(readReading("Fix null check in parser", body).kind).not.toBe("junk");
    expect(readReading("Hello", "This is a test, please ignore").kind).toBe("junk");
  });

  it("a dependency bump is maintenance work, not a status ping", () => {
    const bump = scoreOffline({
      task: "Bump axios from 1.6.0 to 1.6.8",
      description: "Bumps axios from 1.6.0 to 1.6.8.",
    });
    expect(bump.every((v) => !/asks about status/.test(v.reasoning))).toBe(true);
    expect(bump.map((v) => v.reasoning).join(" ")).toMatch(/maintenance work/);
    const ping = scoreOffline({ task: "Bump this please", description: "Any update?" });
    expect(ping.every((v) => v.score <= 3)).toBe(true);
  });

  it('"Document …" is documentation work; a document as the subject is not', () => {
    expect(
      readReading("Document the webhook retry policy", "The docs do not say how often we retry.").kind,
    ).toBe("docs");
    expect(readReading("Export the document to PDF", "Users want a PDF copy.").kind).not.toBe("docs");
  });
});

describe("vague one-liners", () => {
  it.each(["make it better", "it doesnt work", "Something is wrong", "Login broken", "Add export"])(
    "%s: never approved, at most 4",
    (task) => {
      const scores = scoreOffline({ task, description: "" }).map((v) => v.score);
      expect(Math.max(...scores)).toBeLessThanOrEqual(4);
      expect(evaluateApproval(scores, DEFAULT_APPROVAL_POLICY).approved).toBe(false);
    },
  );
});

describe("the reading", () => {
  it("is deterministic and names a bug's severity only for bugs", () => {
    const a = readReading(
      "App crashes on launch",
      "Steps to reproduce\n1. Install\n2. Open\nIt closes at once.",
    );
    expect(a).toEqual(
      readReading("App crashes on launch", "Steps to reproduce\n1. Install\n2. Open\nIt closes at once."),
    );
    expect(a.kind).toBe("bug");
    expect(a.severity).toBe("crash");
    expect(readReading("Add dark mode", "Users asked for it.").severity).toBeUndefined();
  });

  it("calls junk only on strong evidence: a real report with a project word a spammer also uses is not junk", () => {
    expect(
      readReading("Replica sync fails", "The second replica stops syncing after a restart.").kind,
    ).not.toBe("junk");
    expect(
      readReading(
        "Claim your free tokens",
        "Connect your wallet at the link below to claim 500 tokens before the airdrop ends.",
      ).kind,
    ).toBe("junk");
  });

  it("a tracker's note is the whole text; an apology in passing in a long report is not one", () => {
    expect(readReading("Revisit the cache policy", "Oops, wrong repo. Sorry!").kind).toBe("junk");
    const report = [
      "When a provider renders a consumer inline, the consumer reads the default value instead of the provided one.",
      "I spent an afternoon looking and tested a few setups first, so apologies in advance should this turn out to be a duplicate.",
      "Steps: render a provider with value 1, read it with the hook in the same component, and log the result.",
      "Expected the hook to return 1; it returns the default of 0 on every render, in development and in production builds.",
      "It happens with the latest release on both Chrome and Firefox, and in the test renderer as well.",
      "A workaround is to move the consumer into a child component, which is what the documentation suggests for class components.",
    ].join("\n\n");
    const reading = readReading("The hook reads the default value inside its own provider", report);
    expect(reading.kind).not.toBe("junk");
    expect(
      scoreOffline({
        task: "The hook reads the default value inside its own provider",
        description: report,
      }).every((v) => !/note about the tracker/.test(v.reasoning)),
    ).toBe(true);
  });

  it("reads the language from the author's prose: template answers, domains and tables are not Portuguese", () => {
    const templated =
      "### Website or app\n\nshop.example.com\n\n### Repro steps\n\nNo\n\n### OS\n\nNo\n\nThis started after the last update, no panel renders.";
    expect(readReading("Blank tools on localhost only", templated).language).toBe("en");
    // An English report that is mostly a table of system details is still English, and said to be read whole.
    const rows = Array.from({ length: 40 }, (_, i) => `|Setting ${i}|enabled_on gpu_compositing v${i}.2.1|`);
    const report = `When I press tab the line is not completed.\n\n|Item|Value|\n|---|---|\n${rows.join("\n")}`;
    expect(readReading("Tab completion stops early", report).language).toBe("en");
    expect(
      scoreOffline({ task: "Tab completion stops early", description: report }).every(
        (v) => !/reads only partly/.test(v.reasoning),
      ),
    ).toBe(true);
  });

  it("never gives a reason that contradicts the kind it reads", () => {
    const task = "Model conversion fails to run on mobile GPU";
    const description =
      "How can I run a converted model with a transposed convolution on the phone's GPU? Is there a flag for it?\n\nIt fails with an error on the device every time.";
    const product = scoreOffline({ task, description }).find((v) => v.persona === "product")!.reasoning;
    expect(readReading(task, description).kind).toBe("question");
    // Questions are never named (no confidence reaches 90% right on held-out data): it says what the text does.
    expect(product).toMatch(/^It asks: “How can I run a converted model/);
    expect(product).not.toContain("it is a bug report");
    // A compiler's "fatal error" in a question is not a severe defect.
    const build =
      "main.cpp:7:14: fatal error: imgproc_ext.hpp: No such file or directory\ncompilation terminated.";
    expect(readReading("fatal error", build).kind).toBe("question");
    const said = scoreOffline({ task: "fatal error", description: build })
      .map((v) => v.reasoning)
      .join(" ");
    expect(said).not.toContain("the defect is severe");
  });

  it("names the language", () => {
    expect(
      readReading(
        "Export als CSV",
        "Die Tabelle ist nicht exportierbar und ich brauche das für die Buchhaltung.",
      ).language,
    ).toBe("de");
    expect(readReading("导出失败", "点击导出按钮后没有任何反应，文件没有下载。").language).toBe("zh");
  });
});

describe("a Python trace's quote (issue 35)", () => {
  it("is its exception line, not the traceback header or a frame", () => {
    const fenced = [
      "It stops at import:",
      "```",
      "Traceback (most recent call last):",
      '  File "run.py", line 4, in <module>',
      "    import geo.tiles",
      "AttributeError: module 'geo' has no attribute 'tiles'",
      "```",
    ].join("\n");
    expect(quoteOf("geo has no tiles", fenced, "trace")).toBe(
      "AttributeError: module 'geo' has no attribute 'tiles'",
    );
    const framesOnly = [
      "```",
      '  File "run.py", line 4, in <module>',
      "ModuleNotFoundError: No module named 'numpy.distutils'",
      "```",
    ].join("\n");
    expect(quoteOf("Build fails", framesOnly, "trace")).toBe(
      "ModuleNotFoundError: No module named 'numpy.distutils'",
    );
    const prose = [
      "Traceback (most recent call last):",
      '  File "setup.py", line 9, in <module>',
      "ImportError: No module named tables.legacy",
    ].join("\n");
    expect(quoteOf("Build fails", prose, "trace")).toBe("ImportError: No module named tables.legacy");
  });
});

describe("error output announced above a block", () => {
  const announced = (block: string) =>
    readEvidence("Camera does not open", `I get this error:\n\n\`\`\`\n${block}\n\`\`\`\n`);
  it("is the block's failing line when the block is output", () => {
    const trace = announced(
      "[ WARN] global cap_v4l.cpp: V4L2: Unhandled C++ exception was thrown\nopen failed",
    ).find((e) => e.type === "trace");
    expect(trace?.quote).toContain("Unhandled C++ exception was thrown");
  });
  it("is not a statement of source code that names an exception, nor an annotation", () => {
    const types = (block: string) => announced(block).map((e) => e.type);
    expect(
      types(
        'if (!ok) {\n  CV_LOG_WARNING(NULL, "V4L2: Unhandled C++ exception was thrown");\n  return false;\n}',
      ),
    ).not.toContain("trace");
    expect(
      types("@Throws(IOException::class)\nfun load(path: String): Model {\n  return Model(path)\n}"),
    ).not.toContain("trace");
  });
});

describe("a checklist of options", () => {
  it("is no acceptance: a form's choice with one item ticked, or a question's options", () => {
    expect(
      types(
        "Dark mode",
        "# Kind of request\n\n- [x] Please close this, it was sent by mistake\n- [ ] New page\n- [ ] Fix or update\n\nwhy is there no night theme?",
      ),
    ).not.toContain("acceptance");
    expect(
      types(
        "When to flush",
        "What I actually want to know is at which point calling `queue.flush` is safe:\n* [ ] while drawing\n* [ ] while saving\n* [ ] outside of both",
      ),
    ).not.toContain("acceptance");
    // A plan stays a plan.
    expect(types("Export", "- [ ] export button on the report page\n- [ ] one row per task")).toContain(
      "acceptance",
    );
  });
});

describe("a function's name in prose", () => {
  it("is no error output: `CV_Error()` in a changelog's bullet", () => {
    expect(
      types(
        "Shorter log lines",
        "- Cut the folder from log lines, keep the file name only.\n- Reverted `LIB_Error()` changes.",
      ),
    ).not.toContain("trace");
    expect(types("Crash", "It fails with `ValueError: rows must be positive` on load.")).toContain("trace");
  });
});

describe("source pasted without a fence", () => {
  it("is not error output: a statement that throws is code", () => {
    const body = [
      "The reader should retry once when the socket is closed. Roughly:",
      "",
      "if (attempts > 1) {",
      '  throw new SocketException("Socket closed");',
      "}",
      '{ throw new IllegalArgumentException("Target cannot be null." + help); }',
    ].join("\n");
    expect(quoteOf("Retry reads once on a closed socket", body, "trace")).toBeUndefined();
  });
  it("still reads a pasted exception line as output", () => {
    const body = "It fails with\n\njava.net.SocketException: Socket closed\n\tat Reader.read(Reader.java:12)";
    expect(quoteOf("Reads fail on a closed socket", body, "trace")).toMatch(/SocketException: Socket closed/);
  });
});

describe("a clock's time", () => {
  it("is not a version", () => {
    const body = "The chart was empty at 10.41.07 AM, right after the refresh.";
    expect(quoteOf("Chart empty after refresh", body, "versions")).toBeUndefined();
    expect(quoteOf("Chart empty", "It broke after upgrading to 10.41.07 of the driver.", "versions")).toMatch(
      /10\.41\.07/,
    );
  });
});

describe("a tool's printed settings", () => {
  it("are output, not code: names padded to a column, a number after each", () => {
    const dump = ["Heap Configuration:", "   MinFreeRatio      = 40", "   MaxFreeRatio      = 70"];
    const body = `With the cache on, the heap is:\n\n\`\`\`\n${[...dump, "   RegionSize        = 4194304 (4.0MB)"].join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Client runs out of memory with the cache on", body, "code")).toBeUndefined();
  });
  it("still reads code aligned by hand as code", () => {
    const body = "```\nlimit   = load_limit(path)\nretries = 3\nrun(limit, retries)\n```";
    expect(quoteOf("Retries ignore the limit", body, "code")).toMatch(/limit\s+= load_limit/);
  });
});

describe("a thread dump's frames", () => {
  it('are output, not code, without their "at "', () => {
    const frames = [
      "sun.misc.Unsafe.park(Native Method)",
      "java.util.concurrent.locks.LockSupport.park(LockSupport.java:175)",
      "org.example.cache.SlotManager.allocSlot(SlotManager.java:244)",
    ];
    const body = `The driver thread hangs; its stack:\n\n\`\`\`\n${frames.join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Slot allocation hangs", body, "code")).toBeUndefined();
  });
});

describe("a tool's log lines", () => {
  it("are not code, though they start with the tool's name", () => {
    const log = [
      "npm ERR! Linux 4.15.0-29-generic",
      'npm ERR! argv "node" "npm" "install"',
      "npm ERR! code ELIFECYCLE",
    ];
    const body = `Install fails:\n\n\`\`\`\n${log.join("\n")}\nconst app = require("app");\n\`\`\`\n`;
    expect(quoteOf("Install fails on Linux", body, "code") ?? "").not.toMatch(/npm ERR!/);
  });
  it("are not code pasted without a fence either", () => {
    const log = [
      "npm ERR! Linux 4.15.0-29-generic",
      'npm ERR! argv "/usr/bin/nodejs" "/usr/bin/npm" "install"',
      "npm ERR! node v4.2.6",
      "npm ERR! code ENOENT",
    ];
    const body = `I got the following error while installing:\n\n${log.join("\n")}\n\nWhat can I do?`;
    expect(quoteOf("Install fails on Linux", body, "code")).toBeUndefined();
  });
});

describe("a thread dump", () => {
  const dump = [
    '"pool-1-thread-7" #63 daemon prio=5 os_prio=0 tid=0x00007f5c04018800 nid=0x11f31 waiting for monitor entry',
    "   java.lang.Thread.State: BLOCKED (on object monitor)",
    "        at org.example.conf.Settings.getOverlay(Settings.java:1328)",
    "        - waiting to lock <0x00007fa4fc113378> (a org.example.conf.Settings)",
    "        at org.example.conf.Settings.get(Settings.java:1088)",
  ];
  it("is not error output: its frames show where threads wait", () => {
    const body = `Threads queue on one lock; the stack:\n\n\`\`\`\n${dump.join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Lock contention in settings", body, "trace")).toBeUndefined();
  });
  it("with an exception named in it is still error output", () => {
    const failing = [
      ...dump.slice(0, 2),
      "java.lang.IllegalStateException: settings closed",
      ...dump.slice(2),
    ];
    const body = `It fails:\n\n\`\`\`\n${failing.join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Settings fail", body, "trace")).toMatch(/IllegalStateException/);
  });
});

describe("a tool's printed settings padded with no-break spaces", () => {
  it("are output, not code, as they are with plain spaces", () => {
    const pad = (name: string, value: string) => `   ${name}\u00a0 \u00a0 \u00a0 = ${value}`;
    const dump = [
      "Heap Configuration:",
      pad("MinHeapFreeRatio", "40"),
      pad("MaxHeapFreeRatio", "70"),
      pad("MaxHeapSize", "32178700288 (30688.0MB)"),
    ];
    const body = `With hedged reads off the heap is:\n\n\`\`\`bash\n${dump.join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Client runs out of memory", body, "code")).toBeUndefined();
    // Code aligned the same way is still code.
    const code = `\`\`\`\nlimit\u00a0 \u00a0= compute(size);\nrun(limit);\n\`\`\`\n`;
    expect(quoteOf("Limit is wrong", `The limit is computed as:\n\n${code}`, "code")).toBeDefined();
  });
});

describe("a version", () => {
  it("is not a 'v1.1' ending a name or a path", () => {
    const name = "Listing `s3a://foo.bar/x.csv` works, but my bucket `okokes-test-v1.1` does not.";
    expect(quoteOf("Bucket names with dots fail", name, "versions")).toBeUndefined();
    const path = 'The token comes from (AUTHORITY_HOST + tenantId + "/oauth2/v2.0/token") for the client.';
    expect(quoteOf("Support workload identity", path, "versions")).toBeUndefined();
    expect(quoteOf("Upload fails", "Since the client v2.3 uploads fail on large files.", "versions")).toMatch(
      /v2\.3/,
    );
  });
});

describe("a sentence that ends on a call", () => {
  it("is prose, not code pasted without a fence", () => {
    const body = [
      "The principal keeps the trailing dot of the host name.",
      "At the same time we can look at the constructor Principal#Principal(String, int, String) where the host is read;",
      "At the same time the keytab login reads it with InetAddress.getCanonicalHostName();",
      "At the same time we can see the realm lookup in Realms.lookup(host);",
    ].join("\n");
    expect(quoteOf("Principal keeps a trailing dot", body, "code")).toBeUndefined();
  });
});

describe("a Python traceback's echoed source", () => {
  const trace = [
    "Traceback (most recent call last):",
    '  File "/ci/test/functional/test_framework.py", line 133, in main',
    "    self.run_test()",
    '  File "/ci/test/functional/rpc_getblockfrompeer.py", line 112, in run_test',
    "    requirement_set = resolver.resolve(",
    '  File "/ci/test/functional/util.py", line 130, in assert_raises',
    "    assert try_rpc(code, message, fun), 'No exception raised'",
    "AssertionError: Expected substring not found in error message",
  ];
  it("is output, not code, in a fence or pasted without one", () => {
    const fenced = `The test fails on CI:\n\n\`\`\`\n${trace.join("\n")}\n\`\`\`\n`;
    expect(quoteOf("Test fails", fenced, "code")).toBeUndefined();
    expect(quoteOf("Test fails", `The test fails on CI:\n${trace.join("\n")}\n`, "code")).toBeUndefined();
    expect(quoteOf("Test fails", fenced, "trace")).toMatch(/AssertionError/);
  });
  it("never reads as acceptance criteria: 'requirement_set' is a name, not 'Requirements:'", () => {
    expect(quoteOf("Test fails", `It fails:\n${trace.join("\n")}\n`, "acceptance")).toBeUndefined();
    expect(quoteOf("Add export", "Requirements: one row per task and a header row.", "acceptance")).toMatch(
      /one row per task/,
    );
  });
});

describe("a name and a version on a line of their own", () => {
  it("are the environment, not code ('python 3.11.4' opens as a command would)", () => {
    const body = [
      "### System Information",
      "",
      "windows 10",
      "python 3.11.4",
      "node v18.17.0",
      "npm 9.6.7",
    ].join("\n");
    expect(quoteOf("Video plays too fast", body, "code")).toBeUndefined();
  });
});

describe("acceptance labels and pip's output", () => {
  it("'Requirement already satisfied: …' is output; 'Requirements:' and 'Requirements for the export:' are labels", () => {
    const pip = [
      "I installed it:",
      "Requirement already satisfied: numpy in ./venv/lib/python3.10/site-packages (1.24.3)",
      "Requirement already satisfied: six in ./venv/lib/python3.10/site-packages (1.16.0)",
    ].join("\n");
    expect(quoteOf("Import fails", pip, "acceptance")).toBeUndefined();
    expect(quoteOf("Add export", "Requirements for the export: one row per task.", "acceptance")).toMatch(
      /one row/,
    );
  });
});

describe("a quote of a line with a link", () => {
  it("keeps the link's text, so the quote is the author's words", () => {
    const body =
      "Since v0.10 the node has no means to send [`GetBlocks`](https://example.org/reference#getblocks) messages to its peers.";
    const quote = quoteOf("Drop GetBlocks handling", body, "versions")!;
    expect(quote).toMatch(/send `GetBlocks` messages/);
  });
});

describe("demand", () => {
  it("is not a ratio: '5 members per population' is an algorithm's setting, not people asking", () => {
    const body = "The optimiser keeps 5 members per population and stops after 40 generations.";
    expect(quoteOf("Optimiser converges slowly", body, "demand")).toBeUndefined();
    expect(quoteOf("Add export", "Twelve members of our team asked for a CSV export.", "demand")).toMatch(
      /Twelve/,
    );
  });
});

describe("a sentence that announces an error by its name", () => {
  it("is not the error output: the line under it is", () => {
    const body = [
      "First start succeeds; then stop and restart the node: the second start leads to an InitError:",
      "`Error: Unable to expand wallet descriptor from cache`",
      "Now the wallet cannot be loaded by either version.",
    ].join("\n");
    expect(quoteOf("Wallet fails to load", body, "trace")).toBe(
      "`Error: Unable to expand wallet descriptor from cache`",
    );
  });
});

describe("a version in a path", () => {
  it("is a folder's name, not the version the author runs", () => {
    const body =
      "The CLI panics when the port is busy:\n\nthread 'main' panicked at 'error binding to 127.0.0.1:8000', /home/u/.cargo/registry/src/index-1ecc/hyper-0.14.26/src/server/server.rs:79:38";
    expect(quoteOf("CLI panics on a busy port", body, "versions")).toBeUndefined();
    expect(quoteOf("CLI panics", "It panics since 0.14.26 of the server crate.", "versions")).toMatch(
      /0\.14\.26/,
    );
  });
});

describe("'claims of value without evidence'", () => {
  it("is not said where the author measured what the big words size", async () => {
    const { scoreOffline } = await import("../../src/core/offline/offline-scorer.js");
    const said = (description: string) =>
      scoreOffline({ task: "Massive slowdown of the functional tests on one machine", description })
        .map((v) => v.reasoning)
        .join(" ");
    expect(
      said(
        "The tests complete in about 250 seconds on one machine and 3000 seconds on the other; calls are 10x slower.",
      ),
    ).not.toMatch(/claims of value/i);
    expect(
      said("This is a game-changer that every user wants, a must-have for the whole community."),
    ).toMatch(/claims of value/i);
    // A factor in the hype words is no measure of itself; a decade is no measure.
    expect(said("This is a 10x improvement and a game-changer for everyone since the 1990s.")).toMatch(
      /claims of value/i,
    );
  });
});

describe("settings and addresses", () => {
  it("a setting alone on its line is configuration, not code ('force_builders=Custom')", () => {
    const body = "Fixes the timeouts.\n\n```\nforce_builders=Custom\nbuild_image:Custom=ubuntu:22.04\n```\n";
    expect(quoteOf("Fix pipeline timeouts", body, "code")).toBeUndefined();
    const code = "It fails here:\n\n```\nlimit = compute(size)\nrun(limit)\n```\n";
    expect(quoteOf("Limit is wrong", code, "code")).toBe("limit = compute(size)");
  });
  it("an address's part is no version ('192.168.1.x'); a series still is ('React 15.x')", () => {
    expect(
      quoteOf("Peers drop", "Both hosts have 192.168.1.x addresses on the same switch.", "versions"),
    ).toBeUndefined();
    expect(quoteOf("Warning", "This was fine in React 15.x and warns in 16.", "versions")).toMatch(
      /React 15/,
    );
  });
});

describe("a form's question to the reporter", () => {
  it("is never the author's words: 'Do you want to request a feature or report a bug?'", () => {
    const d =
      "**Do you want to request a *feature* or report a *bug*?**\n\nFeature.\n\nThe export should include the header row.";
    expect(
      authorSentences(d)
        .map((s) => s.text)
        .join(" "),
    ).not.toMatch(/Do you want to request/);
  });
});

describe("a command a template offers the reporter", () => {
  it("is the template's example, not the author's code", () => {
    const form = [
      "**System information**",
      "- TensorFlow version: 2.12",
      "",
      "You can obtain the TensorFlow version with:",
      "",
      "```bash",
      'python -c "import tensorflow as tf; print(tf.version.GIT_VERSION, tf.version.VERSION)"',
      "```",
    ].join("\n");
    expect(quoteOf("Shuffle is slow", form, "code")).toBeUndefined();
    const own = "I run it with:\n\n```bash\npython train.py --epochs 3\nimport_data(path)\n```\n";
    expect(quoteOf("Training fails", own, "code")).toBeDefined();
  });
});
