import { describe, expect, it } from "@jest/globals";
import { PERSONAS } from "../../src/core/personas.js";
import { renderSystemPrompt } from "../../src/llm/persona-messages.js";
import { dropMisquotes, misquotes } from "../../src/llm/quote-check.js";
import {
  EXPERTS,
  completion,
  expertOf,
  interceptChat,
  makeScorer,
  offlineNetwork,
  verdictJson,
  type ChatRequest,
} from "../helpers/llm-test-kit.js";

const TASK = {
  task: "Export writes an empty file",
  description:
    "When I click **Export** on a table with more than one page,\n\nthe CSV file is empty. It's v2.3.",
};

describe("quotes in a model's reasoning", () => {
  it("accepts the author's words, whatever the case, whitespace or markdown, and cut parts in order", () => {
    expect(misquotes("Users hit “the CSV file is empty”.", TASK)).toEqual([]);
    expect(
      misquotes("“when I click export on a table”, then “more than one page…file is empty”", TASK),
    ).toEqual([]);
    expect(misquotes("The version: `v2.3`; “It’s v2.3”.", TASK)).toEqual([]);
  });

  it("finds spans not in the task, and drops only their marks", () => {
    const reasoning =
      "It says “the CSV file is empty” and “customers are leaving”; “file is empty…When I click” too.";
    expect(misquotes(reasoning, TASK)).toEqual(["“customers are leaving”", "“file is empty…When I click”"]);
    expect(dropMisquotes(reasoning, TASK)).toBe(
      "It says “the CSV file is empty” and customers are leaving; file is empty…When I click too.",
    );
    expect(dropMisquotes("Nothing quoted here at all.", TASK)).toBe("Nothing quoted here at all.");
  });
});

describe("the LLM scorer's prompts", () => {
  it("ask each persona to quote the author, keep to its own angle and write no shared or stock sentence", () => {
    for (const p of PERSONAS) {
      const text = renderSystemPrompt(p.id);
      expect(text).toContain("judge only yours");
      expect(text).toContain("Quote the author's own words");
      expect(text).toContain("exactly as they appear in the title or description");
      expect(text).toContain("no sentence another expert on the jury would write the same way");
      expect(text).toContain("no stock sentence that would fit any task");
    }
  });
});

describe("OpenAiScorer: a reasoning that misquotes the task", () => {
  offlineNetwork();

  const UX = "UX Designer";
  const misquoted = JSON.stringify({
    score: 4,
    reasoning: "Users say “the export button is broken everywhere”.",
  });
  const grounded = JSON.stringify({
    score: 6,
    reasoning: "Users meet “the CSV file is empty” after one click.",
  });

  /** The UX Designer answers `answers` in turn; everyone else answers well. */
  function fake(answers: string[]) {
    const calls: Record<string, number> = {};
    return interceptChat((body: ChatRequest) => {
      const e = expertOf(body);
      calls[e] = (calls[e] ?? 0) + 1;
      if (e === UX) return [200, completion(answers[Math.min(calls[e]! - 1, answers.length - 1)]!)];
      return [200, completion(verdictJson(e, 3 + EXPERTS.indexOf(e as (typeof EXPERTS)[number])))];
    });
  }

  it("asks for exactly one repair, naming the false quote, and uses the repaired answer", async () => {
    const { requests } = fake([misquoted, grounded]);
    const { scorer } = makeScorer();
    const verdicts = await scorer.score(TASK);
    const ux = requests.filter((r) => expertOf(r) === UX);
    expect(requests).toHaveLength(6);
    expect(ux).toHaveLength(2);
    expect(ux[1]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(ux[1]!.messages[2]!.content).toBe(misquoted);
    expect(ux[1]!.messages[3]!.content).toMatch(
      /could not be used: the reasoning quotes words that are not in the task \(“the export button is broken everywhere”\)/,
    );
    expect(verdicts[2]).toMatchObject({
      persona: "ux",
      score: 6,
      reasoning: "Users meet “the CSV file is empty” after one click.",
    });
  });

  it("ships a still-misquoted repair without the false quote marks, after one repair", async () => {
    const stillBad = JSON.stringify({
      score: 5,
      reasoning: "Users say “nobody can export anything” and “the CSV file is empty”.",
    });
    const { requests } = fake([misquoted, stillBad]);
    const { scorer } = makeScorer();
    const verdicts = await scorer.score(TASK);
    expect(requests.filter((r) => expertOf(r) === UX)).toHaveLength(2);
    expect(verdicts[2]).toMatchObject({
      persona: "ux",
      score: 5,
      reasoning: "Users say nobody can export anything and “the CSV file is empty”.",
    });
    expect(misquotes(verdicts[2]!.reasoning, TASK)).toEqual([]);
  });

  it("keeps the first answer without its false quotes when the repair is not valid output", async () => {
    const { requests } = fake([misquoted, '{"score": 9, "reasoning": "unterminated']);
    const { scorer } = makeScorer();
    const verdicts = await scorer.score(TASK);
    expect(requests.filter((r) => expertOf(r) === UX)).toHaveLength(2);
    expect(verdicts[2]).toMatchObject({
      score: 4,
      reasoning: "Users say the export button is broken everywhere.",
    });
  });

  it("asks nothing more when every quote is the author's", async () => {
    const { requests } = fake([grounded]);
    const { scorer } = makeScorer();
    const verdicts = await scorer.score(TASK);
    expect(requests).toHaveLength(5);
    expect(verdicts[2]!.reasoning).toBe("Users meet “the CSV file is empty” after one click.");
  });
});
