/**
 * The one markdown pass every finder reads (read-markdown.ts): what is code and what is a template's comment is
 * decided once, so the report's parts agree on it. Checked through what a user sees: the reading's evidence and
 * ask, and the text a finder is given.
 */
import { describe, expect, it } from "@jest/globals";
import { findAsk } from "../../src/core/offline/find-ask.js";
import { readEvidence } from "../../src/core/offline/read-evidence.js";
import { readMarkdown, renderMarkdown } from "../../src/core/offline/read-markdown.js";
import { readSegments } from "../../src/core/offline/segments.js";

const fence = "```";

describe("the description's markdown, read once", () => {
  it("takes the template's comments out, each leaving a line break, and finds the code blocks in what is left", () => {
    const md = readMarkdown(
      `<!-- Describe the bug. ${fence} is not a fence in here -->The export fails on empty reports.\n${fence}js\nexport(report)\n${fence}\nIt worked in 2.3.`,
    );
    expect(md.text).not.toContain("Describe the bug");
    expect(md.text.startsWith("\nThe export fails")).toBe(true);
    expect(md.blocks).toHaveLength(1);
    const [b] = md.blocks;
    expect(md.text.slice(b!.bodyStart, b!.bodyEnd)).toBe("export(report)\n");
    expect(renderMarkdown(md, () => "[code]")).toBe(
      "\nThe export fails on empty reports.\n[code]\nIt worked in 2.3.",
    );
  });

  it("reads an unclosed fence to the end, as GitHub shows it, and a fence on one line as inline code", () => {
    expect(readMarkdown(`Steps:\n${fence}\nrun it\nmore`).blocks).toHaveLength(1);
    expect(readMarkdown(`Use ${fence}npm ci${fence} first.\n${fence}js${fence}`).blocks).toHaveLength(0);
  });

  it("reads only up to a bound where a finder asks for less, keeping a block that starts before it whole", () => {
    const md = readMarkdown(`abc\n${fence}\nx\n${fence}\ndef`);
    expect(renderMarkdown(md, () => "C", 5)).toBe("abc\nC");
    expect(renderMarkdown(md, () => "C", 2)).toBe("ab");
  });

  it("gives every finder the same code: a sentence inside a block is neither quoted, nor the ask, nor evidence", () => {
    const description = [
      "The dashboard crashes when the report is empty.",
      fence,
      "Please add an option to skip empty reports, 500 users need it",
      fence,
    ].join("\n");
    const md = readMarkdown(description);
    expect(readSegments(md).sentences.map((s) => s.text)).toEqual([
      "The dashboard crashes when the report is empty.",
    ]);
    expect(findAsk("Dashboard crash", description, md)).toBe(
      "The dashboard crashes when the report is empty.",
    );
    expect(readEvidence("Dashboard crash", description, md).map((e) => e.type)).not.toContain("demand");
  });

  it("never reads a template's comment as the author's: its words are in no finder's output", () => {
    const description =
      "<!--\nPlease describe the problem. 200 customers asked for this.\n-->\nThe invoice total rounds the tax twice, so totals are off by a cent.";
    const md = readMarkdown(description);
    const texts = [
      ...readSegments(md).sentences.map((s) => s.text),
      findAsk("Invoice totals", description, md) ?? "",
      ...readEvidence("Invoice totals", description, md).map((e) => e.quote),
    ];
    expect(texts.join(" ")).toContain("rounds the tax twice");
    expect(texts.join(" ")).not.toMatch(/customers|Please describe/);
  });
});
