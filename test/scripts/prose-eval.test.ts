import { describe, expect, it } from "@jest/globals";
import {
  blankSentence,
  isAcceptanceEstimate,
  proseFigures,
  quoteFound,
  quotedSpans,
  searchableText,
  splitSentences,
  statesAbsence,
  type ProseInput,
} from "../../scripts/eval/prose.js";

describe("prose measures: sentences and quotes", () => {
  it("splits after . ! ? before a capital or a quote, never inside a quoted span", () => {
    expect(splitSentences("It crashes. Fix it! Why? “Now.” e.g. a thing. end")).toEqual([
      "It crashes.",
      "Fix it!",
      "Why?",
      "“Now.” e.g. a thing. end",
    ]);
    expect(splitSentences("Steps: “Open it. Then click Save.” Nothing else.")).toEqual([
      "Steps: “Open it. Then click Save.”",
      "Nothing else.",
    ]);
    expect(splitSentences('He wrote "Run it. Then wait." Done.')).toEqual([
      'He wrote "Run it. Then wait."',
      "Done.",
    ]);
    // A stray opening mark with no closer is not a span.
    expect(splitSentences("A “stray mark. Next one.")).toEqual(["A “stray mark.", "Next one."]);
  });

  it('finds quoted spans of 3+ characters in “”, "" and ``', () => {
    expect(quotedSpans('Demand: “we need this”; code `npm ci`, and "ok".')).toEqual([
      "we need this",
      "npm ci",
    ]);
  });

  it("blanks quotes, parentheses and numbers, squeezes and lowercases", () => {
    expect(blankSentence("Accepted about 6 times in 10 (“fails”):  “it breaks”.")).toBe(
      "accepted about n times in n (q): q.",
    );
    expect(blankSentence("Accepted about 7 times in 10 (x):  “other words”.")).toBe(
      blankSentence("Accepted about 6 times in 10 (y): “it breaks”."),
    );
  });

  it("finds a quote in the text after squeezing whitespace and markdown marks; cut parts must come in order", () => {
    const text = searchableText(
      "Login fails",
      "When I **click** Save\n\nthe page   goes blank and the log says nothing.",
    );
    expect(quoteFound("click Save the page goes blank", text)).toBe(true);
    expect(quoteFound("When I click Save…the log says nothing.", text)).toBe(true);
    expect(quoteFound("the log says nothing…When I click Save", text)).toBe(false);
    expect(quoteFound("the page turns red", text)).toBe(false);
    expect(quoteFound("Login fails", text)).toBe(true);
  });

  it("recognises stated absences (outside quotes) and the acceptance estimate", () => {
    expect(statesAbsence("I found no steps to reproduce.")).toBe(true);
    expect(statesAbsence("It has no acceptance criteria.")).toBe(true);
    expect(statesAbsence("The author says “I found no workaround”.")).toBe(false);
    expect(statesAbsence("Steps are given.")).toBe(false);
    expect(isAcceptanceEstimate("Maintainers accept tasks like this about 6 times in 10.")).toBe(true);
    expect(isAcceptanceEstimate("Maintainers accept it.")).toBe(false);
  });
});

describe("prose measures: figures over reports", () => {
  const long =
    "The export button writes an empty file when the table has more than one page of rows. ".repeat(3);
  const report = (
    reasoning: string[],
    description = long,
    title = "Export writes an empty file",
  ): ProseInput => ({
    title,
    description,
    reasoning,
  });

  it("counts boilerplate (quote-free, in 5%+ of reports), echoes, grounding, misquotes, absences, estimates", () => {
    const reports: ProseInput[] = [
      report([
        "It reads as a bug report. Maintainers accept tasks like this about 6 times in 10.",
        "The author says “writes an empty file”.",
        "Rows: “more than one page of rows”.",
        "It fails on “the table has more”.",
        "Only “an invented quote here”.",
      ]),
      report([
        "It reads as a bug report. I found no steps to reproduce.",
        "It reads as a bug report.",
        "Users see “an empty file”.",
        "Something unique to this one.",
        "Maintainers accept tasks like this about 7 times in 10. Maintainers accept tasks like this about 7 times in 10.",
      ]),
    ];
    // Recurring means in both reports here (share 1).
    const f = proseFigures(reports, 1);
    expect(f.reports).toBe(2);
    expect(f.sentences).toBe(13);
    // "it reads as a bug report." (3 sentences) and the estimate (3 sentences) recur in both reports.
    expect(f.boilerplate).toBe(6);
    expect(f.topBoilerplate.map(([s]) => s)).toContain("it reads as a bug report.");
    // Report 2: two personas say "It reads as a bug report." Report 1: no sentence shared.
    expect(f.echoReports).toBe(1);
    expect(f.described).toBe(2);
    expect(f.grounded).toBe(1);
    expect(f.spans).toBe(5);
    expect(f.misquotes).toBe(1);
    expect(f.misquoteExamples).toEqual(["an invented quote here"]);
    expect(f.absenceReports).toBe(1);
    expect(f.estimates).toBe(3);
    expect(f.reportsWithEstimateTwice).toBe(1);
    expect(f.maxEstimatesInReport).toBe(2);
  });

  it("counts the reports in which two or more personas quote only the title", () => {
    const title = "Export fails on empty reports";
    const repeated = report(
      [
        `It reports a bug in “${title}”, weighed for revenue.`,
        `It reports a bug in “${title}”, weighed for the code.`,
        "The author writes: “writes an empty file”.",
        "Nothing to quote.",
        "Users see “an empty file”.",
      ],
      "It writes an empty file when the table has more than one page of rows.",
      title,
    );
    const once = report(
      [
        `It reports a bug in “${title}”, weighed for revenue.`,
        "It is weighed for the code; the author also writes: “writes an empty file”.",
        "Users see “an empty file”.",
        "Nothing to quote.",
        "Nothing either.",
      ],
      "It writes an empty file when the table has more than one page of rows.",
      title,
    );
    expect(proseFigures([repeated, once]).titleRepeatReports).toBe(1);
  });

  it("counts grounding only among tasks with 200+ characters of description", () => {
    const short = report(
      ["“writes an empty file” a.", "“writes an empty file” b.", "“writes an empty file” c."],
      "x",
    );
    const f = proseFigures([short]);
    expect(f.described).toBe(0);
    expect(f.grounded).toBe(0);
  });
});
