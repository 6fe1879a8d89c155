import { describe, expect, it } from "@jest/globals";
import { quotedParagraphs } from "../../src/core/offline/ask-paragraphs.js";
import { ASK_MODEL } from "../../src/core/offline/ask-model.data.js";
import { ASK_FEATURES } from "../../src/core/offline/ask-rank.js";
import { askCandidates, askCue } from "../../src/core/offline/ask-sentences.js";
import { ASK_MAX, findAsk } from "../../src/core/offline/find-ask.js";
import { readMarkdown } from "../../src/core/offline/read-markdown.js";
import { authorSentences } from "../../src/core/offline/segments.js";

/** The ask is the description's own text (whitespace runs shown as one space), a final "…" aside. */
function expectQuoted(ask: string | null, description: string): void {
  expect(ask).not.toBeNull();
  const body = ask!.endsWith("…") ? ask!.slice(0, -1) : ask!;
  expect(description.replace(/\s+/g, " ")).toContain(body);
}

describe("findAsk", () => {
  it("takes the sentence under a 'Describe the bug' heading, not the heading or the prompt", () => {
    const d = [
      "### Describe the bug",
      "<!-- Say what went wrong, in a sentence or two. -->",
      "Saving a draft with an emoji in the title loses the whole draft. It happened twice today.",
      "",
      "### Steps to reproduce",
      "1. Open the editor",
      "2. Type a title with an emoji",
      "",
      "### Expected behavior",
      "The draft should be saved.",
    ].join("\n");
    const ask = findAsk("Drafts lost", d);
    expect(ask).toBe("Saving a draft with an emoji in the title loses the whole draft.");
    expectQuoted(ask, d);
  });

  it("skips a greeting and thanks before the request", () => {
    const d =
      "Hi team!\n\nThanks for this tool, our office uses it daily.\n\nIt would be nice to export the report as CSV as well as PDF.";
    expect(findAsk("CSV export", d)).toBe("It would be nice to export the report as CSV as well as PDF.");
  });

  it("leaves out a greeting that opens the sentence holding the ask", () => {
    const d = "Hello everyone, the importer crashes when a row has an empty date.";
    expect(findAsk("Importer crash", d)).toBe("the importer crashes when a row has an empty date.");
  });

  it("never takes a checklist line or the tracker's boilerplate", () => {
    const d = [
      "- [x] I looked through the open reports first",
      "- [x] My version is the newest one",
      "",
      "I looked through the open reports.",
      "",
      "Please add a setting to turn off the sound when a timer ends.",
    ].join("\n");
    expect(findAsk("Mute timers", d)).toBe("Please add a setting to turn off the sound when a timer ends.");
  });

  it("is null for code, logs and quotes of others alone", () => {
    const d = [
      "```",
      "Traceback (most recent call last):",
      '  File "main.py", line 3, in <module>',
      "ValueError: the export fails with an error",
      "```",
      "",
      "> Someone wrote: please add support for YAML, it would be nice.",
      "",
      "    const x = shouldFail(); // this does not work",
    ].join("\n");
    expect(findAsk("ValueError", d)).toBeNull();
  });

  it("is null for a template with nothing filled in", () => {
    // An invented template of the usual shape: headings, prompts and a placeholder, nothing of an author's own.
    const d = [
      "**Does your idea come from a problem? Please describe.**",
      "A clear and concise account of the problem. For example: it annoys me when [...]",
      "",
      "**Describe what you would want**",
      "A short description of what should happen.",
      "",
      "**Anything else**",
      "_No response_",
    ].join("\n");
    expect(findAsk("Feature", d)).toBeNull();
  });

  it("reads Chinese text, sentences ending in 。", () => {
    const d = "你好。\n\n希望能够支持导出为 Excel 格式的报表。谢谢！";
    expect(findAsk("导出", d)).toBe("希望能够支持导出为 Excel 格式的报表。");
  });

  it("cuts a long sentence at a word, within 240 characters, with '…'", () => {
    const long = `The export fails ${"when the report holds many rows of data from several sources ".repeat(6)}today.`;
    const ask = findAsk("Export", long);
    expect(ask).not.toBeNull();
    expect(ask!.length).toBeLessThanOrEqual(ASK_MAX);
    expect(ask!.endsWith("…")).toBe(true);
    expect(ask!).not.toMatch(/\s…$/);
    expectQuoted(ask, long);
    // Cut between words: what precedes "…" is a whole word of the text.
    const lastWord = ask!.slice(0, -1).split(" ").pop()!;
    expect(long.split(/\s+/)).toContain(lastWord);
  });

  it("is null where nothing states a request or problem, and never falls back to the title", () => {
    expect(findAsk("Add dark mode", "")).toBeNull();
    expect(findAsk("Add dark mode", "Version 2.3.1 on Ubuntu 22.04.")).toBeNull();
  });

  it("quotes a sentence wrapped over lines with its line break as a space", () => {
    const d = "When I open a file larger than 2 GB the editor\nfreezes and has to be killed.";
    const ask = findAsk("Freeze", d);
    expect(ask).toBe("When I open a file larger than 2 GB the editor freezes and has to be killed.");
    expectQuoted(ask, d);
  });

  // Each rule below came from fresh maintainers' readings of unseen issues (issue 35), written as text of our own.
  it("does not take a form's 'Who will benefit' answer for the ask, and reads 'we would very much like'", () => {
    const d = [
      "**Describe the feature and how it behaves today.**",
      "The widget keeps its input when the reverse is asked for. We would very much like a flag that turns this caching off.",
      "",
      "**Who will benefit from this?**",
      "Anyone who wants the reverse always computed rather than the kept input.",
    ].join("\n");
    expect(findAsk("Option to avoid caching", d)).toBe(
      "We would very much like a flag that turns this caching off.",
    );
  });

  it("reads 'I wanted to …' as what the author was doing, not the request", () => {
    const d =
      "I wanted to trace incoming peers.\n\nThe trace file does not show which topic each line belongs to.";
    expect(findAsk("Trace lines without their topic", d)).toBe(
      "The trace file does not show which topic each line belongs to.",
    );
  });

  it("takes no lead-in to an example or a paste ('… like this', 'here's my log') for the ask", () => {
    expect(
      findAsk(
        "Hooks",
        "**What is the current behavior?**\nRefactoring means turning the arrow into a body, like this",
      ),
    ).toBeNull();
    expect(
      findAsk(
        "Build",
        "### Detailed description\nOnce I had configured the project here's my configuration log",
      ),
    ).toBeNull();
  });

  it("takes no passage the author put in quotation marks, over paragraphs", () => {
    const d =
      '"The reason the first authors chose this order is probably that cameras used it.\n\nIt was a choice made for history."\n\nPlease switch the default order to RGB.';
    expect(findAsk("RGB", d)).toBe("Please switch the default order to RGB.");
    expect(quotedParagraphs(['"Save" does nothing when clicked.'])).toEqual(new Set());
  });

  it("ends a sentence at a capital's period that ends a line", () => {
    const d =
      "**Describe the feature**\nThe call picks rows of table T by the keys in K and sums them into S.\nT: [rows, width]\nK: [count]";
    expect(askCandidates(d)[0]?.text).toBe(
      "The call picks rows of table T by the keys in K and sums them into S.",
    );
  });

  it("reads 'problem' naming an activity ('problem tracking') as no problem, and 'we can print …' as a proposal", () => {
    expect(
      askCue("To make problem tracking easier, we can print the queue length in the timeout message."),
    ).toBe("request");
    expect(askCue("The problem is that the export hangs on large files.")).toBe("problem");
  });

  it("reads a question after a leading clause as a question, and 'error handling' as no failure", () => {
    expect(askCue("If this is intended, then what's the way to turn the timing marks off?")).toBe("question");
    expect(askCue("The library has made recent improvements to error handling and logging.")).toBeNull();
    expect(askCue("The export throws an error on empty reports.")).toBe("problem");
  });

  it("takes neither a sentence naming the kind nor one cut before its link for the ask", () => {
    expect(
      findAsk(
        "Load ops in C",
        "This is a feature request.\n\nWe could move the loader to C so that ops load from the C API.",
      ),
    ).toBe("We could move the loader to C so that ops load from the C API.");
    expect(
      findAsk("Fix boundaries", "This ought to have been fixed by https://github.com/o/r/issues/1"),
    ).toBeNull();
  });

  it("takes what the author expects for the ask only where nothing else states the problem", () => {
    const d =
      "<!-- What did you expect to happen? -->\nExpected behaviour: the daemon should not crash when the scheduler wakes up.";
    // Readers took an expectation that is the text's only statement for its ask (20 of 800 picks).
    expect(findAsk("Daemon stops", d)).toBe("the daemon should not crash when the scheduler wakes up.");
    const both = `### Describe the bug\nThe daemon crashes with exit code 3 when the scheduler wakes up.\n\n${d}`;
    expect(findAsk("Daemon stops", both)).toBe(
      "The daemon crashes with exit code 3 when the scheduler wakes up.",
    );
  });

  it("reads a sentence ending in '?' with a question word inside it as a question", () => {
    expect(askCue("pause() returns early when the clock is idle and the worker is busy, but why?")).toBe(
      "question",
    );
    expect(askCue("The export fails on empty reports?")).not.toBe("question");
  });

  it("takes neither the paste after a lead-in ('… it throws following error:') nor a cause alone for the ask", () => {
    const d = [
      "**Is your feature request related to a problem? Please describe.**",
      "When I sign a draft with this flag in the desktop app, it throws following error:",
      "```",
      "Signature flag in the request differs from the flag kept in the draft",
      "```",
      "",
      "**Describe the solution you'd like**",
      "I'd like it to sign such drafts successfully.",
    ].join("\n");
    // The pasted message is no candidate; either of the author's own sentences may be the ask.
    expect(askCandidates(d).map((c) => c.text)).not.toContain(
      "Signature flag in the request differs from the flag kept in the draft",
    );
    expect([
      "When I sign a draft with this flag in the desktop app, it throws following error:",
      "I'd like it to sign such drafts successfully.",
    ]).toContain(findAsk("Signing drafts with a sighash flag", d));
    expect(findAsk("Abort", "### Current behavior?\n\nDue to a huge count passed in")).toBeNull();
    expect(askCue("Because of this, the export fails on empty reports.")).toBe("problem");
  });

  it("takes no pointer to what was posted elsewhere for the ask", () => {
    expect(askCue("I put the complete backtraces in #4821 before this separate report.")).toBeNull();
  });

  it("takes nothing from a template's aside in parentheses, nor a template's 'What's the …?' prompt", () => {
    const d = [
      "_(Note, not every part below needs an answer. The parts are a guide only. Still, detailed requests tend to be read sooner)_",
      "",
      "### Solution",
      "",
      "**First step:** What's the least work that would solve most of the problem?",
    ].join("\n");
    expect(findAsk("Side panel", d)).toBeNull();
  });

  it("takes no placeholder in capitals for the ask ('ENTER THE DETAILS HERE')", () => {
    expect(findAsk("Bug", "ENTER THE DETAILS HERE\n\n### Version\n\n1.2.3")).toBeNull();
    expect(findAsk("Toggle", "Add a dark mode toggle here.")).toBe("Add a dark mode toggle here.");
  });

  it("takes neither 'This is both bug / feature' nor a template's 'Write a brief description …' for the ask", () => {
    expect(
      findAsk(
        "Export of empty reports",
        "** This is both bug / feature request\n\nThe export fails on empty reports.",
      ),
    ).toBe("The export fails on empty reports.");
    expect(findAsk("x", "### Summary\n\nWrite a brief description of the problem\n\n### Steps")).toBeNull();
  });
});

describe("the ask's ranker", () => {
  it("is fitted on the features it reads (npm run fit:ask after changing them)", () => {
    expect(ASK_MODEL.features).toEqual([...ASK_FEATURES]);
    expect(ASK_MODEL.weights).toHaveLength(ASK_FEATURES.length);
  });

  it("takes a problem stated under 'Describe the bug' over the scene set before it and the steps after it", () => {
    const d = [
      "### Describe the bug",
      "I run the nightly build on a laptop with two screens.",
      "The settings window opens off screen after the second screen is unplugged.",
      "",
      "### Steps to reproduce",
      "1. Open the settings window on the second screen",
      "2. Unplug the second screen and open the settings window again",
    ].join("\n");
    expect(findAsk("Settings window opens off screen", d)).toBe(
      "The settings window opens off screen after the second screen is unplugged.",
    );
  });

  it("takes nothing the form filled in itself ('(automated)' sections) as a candidate", () => {
    const d = [
      "### Repro steps",
      "",
      "Open the panel twice and close it once.",
      "",
      "### Error message (automated)",
      "",
      "Cannot detach item 12: the list holds no such item.",
    ].join("\n");
    const texts = askCandidates(d).map((c) => c.text);
    expect(texts).toContain("Open the panel twice and close it once.");
    expect(texts.join(" ")).not.toContain("Cannot detach item 12");
  });

  it("shows nothing where the only sentences are the author's setup", () => {
    expect(
      findAsk("Sync fails", "I am using version 4.2 on a Debian laptop with the default settings."),
    ).toBeNull();
  });
});

describe("a pointer to an attachment", () => {
  it("is not the ask", async () => {
    const { findAsk } = await import("../../src/core/offline/find-ask.js");
    const ask = findAsk(
      "Mount the archive store as a file system",
      "Please see the attached document for how the mount would work and what it costs.",
    );
    expect(ask ?? "").not.toMatch(/attached document/);
  });
});

describe("a tool's output in a fence, and a fragment", () => {
  it("a fenced line of output is not the author's prose", () => {
    const cands = askCandidates(
      "The docs build broke today.\n\n```\nFatal error compiling: error: target release 9 not supported\n```\n",
    ).map((c) => c.text);
    expect(cands).toEqual(["The docs build broke today."]);
  });
  it("a fenced paragraph of prose is still read", () => {
    const cands = askCandidates(
      "## Current behaviour\n\n```\nWhen I open the settings page the save button stays grey after I change a value.\n```\n",
    ).map((c) => c.text);
    expect(cands).toEqual([
      "When I open the settings page the save button stays grey after I change a value.",
    ]);
  });
  it("a sentence that stops on a word needing more is no candidate", () => {
    const cands = askCandidates(
      "The new client keeps the old core for plugin support of\n\n* credential providers\n* token binding\n\nI propose we drop the token binding.",
    ).map((c) => c.text);
    expect(cands).not.toContain("The new client keeps the old core for plugin support of");
  });
});

describe("words the author struck through", () => {
  it("are withdrawn: never the ask, in ~~…~~ or <del>", () => {
    const rest = "\n\nThe export menu has one entry today.";
    const struck = "It would be nice to export the report as PDF only.";
    for (const d of [`~~${struck}~~${rest}`, `<del>${struck}</del>${rest}`])
      expect(findAsk("Export", d)).toBe("The export menu has one entry today.");
  });
  it("leave a fence of tildes alone", () => {
    const d =
      "It would be nice to export the report as CSV as well as PDF.\n\n~~~\nexport --format csv\n~~~\n";
    expect(findAsk("CSV export", d)).toBe("It would be nice to export the report as CSV as well as PDF.");
    expect(readMarkdown(d).blocks).toHaveLength(1);
  });
});

describe("a linter's report pasted in a fence", () => {
  it("is not the author's prose", () => {
    const report = [
      "Suspicious code warnings",
      "Code\tWarning",
      "NP\tPossible null dereference in Queue.size(String) due to the value a called method returns",
      "Bug type NP_NULL_ON_SOME_PATH (click for details)",
      "Dereferenced at Queue.java:[line 332]",
    ].join("\n");
    const d = `Pull requests against the core module report a lint problem\n\n\`\`\`\n${report}\n\`\`\`\n`;
    const cands = askCandidates(d).map((c) => c.text);
    expect(cands.join(" ")).not.toMatch(/Suspicious code warnings|click for details/);
  });
});

describe("a Python traceback's frame", () => {
  it("is never the ask, pasted into a sentence", () => {
    const d =
      'On launch the log shows Traceback (most recent call last): File "/opt/tiles/loader.py", line 12, in start import sip\n\n' +
      "The tile plugin installs cleanly, yet each launch prints a Python error.";
    expect(findAsk("Python error at plugin start", d) ?? "").not.toMatch(/File "/);
    expect(
      askCandidates(d)
        .map((c) => c.text)
        .join(" "),
    ).not.toMatch(/File "/);
  });
});

describe("output pasted twice, in a fence and again without one", () => {
  const output = [
    "Testing TestInvoke",
    "Didn't find op for builtin opcode 'REVERSE_V2' version '1'. An older version of this builtin might be supported. Are you",
    " using an old TFLite binary with a newer model?",
    "",
    "Failed to get registration from op code REVERSE_V2",
  ];
  const d = [
    "**Provide the text output**",
    "",
    "```",
    ...output,
    "```",
    "",
    "**Standalone code to reproduce the issue**",
    "when I invoke the model I get an error:",
    "",
    ...output,
    "",
    "can you tell me the reason? thanks",
  ].join("\n");
  it("is output both times: never the ask", () => {
    expect(findAsk("Didn't find op for builtin opcode REVERSE_V2", d) ?? "").not.toMatch(
      /find op|TestInvoke/,
    );
  });
  it("in a fence of output and again without one, is never the author's sentence", () => {
    const log = ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>', ...output];
    const twice = `\`\`\`\n${log.join("\n")}\n\`\`\`\n\nThe same again:\n\n${output.join("\n")}\n\nWhy does this happen?`;
    expect(
      authorSentences(twice)
        .map((s) => s.text)
        .join(" "),
    ).not.toMatch(/find op|TestInvoke|registration/);
  });
  it("but prose a form put in a fence and the author wrote again outside it stays the author's", () => {
    const prose =
      "I was trying to make a custom layer that performs the same as Add, except with trainable coefficients.";
    const form = `${prose}\n\n### Current Behaviour?\n\n\`\`\`shell\n${prose}\n\`\`\`\n`;
    expect(authorSentences(form).map((s) => s.text)).toContain(prose);
  });
});

describe("a checklist ticked by hand", () => {
  it("is the form's checklist, never the author's words: '[OK]', '[Yes]', '[✓]' as '[x]'", () => {
    for (const box of ["[OK]", "[Yes]", "[✓]", "[x]", "[ x ]"]) {
      const d = [
        "### Pull Request Readiness Checklist",
        "",
        `- ${box} I agree to contribute to the project under Apache 2 License.`,
        `- ${box} To the best of my knowledge, the proposed patch is not based on a code under GPL.`,
        "",
        "This adds white balance controls to the DirectShow capture backend.",
      ].join("\n");
      const sentences = authorSentences(d).map((s) => s.text);
      expect(sentences).toEqual(["This adds white balance controls to the DirectShow capture backend."]);
    }
    // A link's text in brackets is not a box.
    expect(
      authorSentences("[OK](https://example.com/ok) is what the dialog shows after every save."),
    ).toHaveLength(1);
  });
});

describe("a log's line or a code comment pasted without a fence", () => {
  it("is not the author's sentence; the author's own 'Warning …' sentence still is", () => {
    const d = [
      "The model trains, then prints:",
      "WARNING:tensorflow:From /venv/lib/python3.10/site-packages/tensorflow/python/ops/ctc_ops.py:1514: alias_inplace_add is deprecated and will be removed.",
      "2022-11-17T22:07:45Z *** Flushing block file to disk failed. This is likely the result of an I/O error.",
      "// Releases model resources if no longer used. model.close()",
      "",
      "Warning in case the state is modified during the first render would help people find this.",
    ].join("\n");
    const sentences = authorSentences(d).map((s) => s.text);
    expect(sentences.join(" ")).not.toMatch(/alias_inplace_add|I\/O error|Releases model resources/);
    expect(sentences).toContain(
      "Warning in case the state is modified during the first render would help people find this.",
    );
  });
});

describe("a sentence that is a cause throughout", () => {
  it("is not the ask though it names a need ('Because I need to use the GPU …')", () => {
    const d = [
      "Recent releases of the toolkit dropped the native GPU build on this system.",
      "If built in the VM",
      "Is there a shortcut to read data from the host folder in the VM?",
      "Because I need to use the toolkit GPU to compute a lot of data.",
    ].join("\n\n");
    expect(findAsk("Toolkit GPU", d) ?? "").not.toMatch(/^Because/);
    expect(askCue("Because of this, we need a flag that turns caching off.")).toBe("request");
  });
});

describe("a line under a heading for steps", () => {
  it("is a step, numbered or not: not the ask though it opens with a verb", () => {
    const d = [
      "### Website or app",
      "",
      "https://example.com/blog/manifest-transition",
      "",
      "### Repro steps",
      "",
      "Use the latest DevTools build with Electron (18.2.0 / Chromium 100)",
      "",
      "```",
      "Warning: Manifest version 2 is deprecated, and support will be removed in 2023.",
      "```",
    ].join("\n");
    expect(findAsk("[DevTools] Manifest version 2 is deprecated", d)).toBeNull();
  });
});

describe("'The reason is …'", () => {
  it("gives a cause, not the ask: the question after it is", () => {
    const d = [
      "The reason is that when I compiled the library in the terminal, the output was all white and hard to read.",
      "Can I add a highlight effect like other terminals have?",
    ].join(" ");
    expect(findAsk("Add terminal highlighting support", d)).toBe(
      "Can I add a highlight effect like other terminals have?",
    );
    expect(askCue("The reason is that the export fails on empty reports.")).toBeNull();
  });
});

describe("a cause with a main clause after its comma", () => {
  it("is read by its main clause: the request after the cause stands", () => {
    expect(askCue("Due to the new privacy law, we need to add a consent banner to the signup page.")).toBe(
      "request",
    );
    expect(askCue("The reason is that I export the data every night, so please add a CSV option.")).toBe(
      "request",
    );
    expect(askCue("Because I need to use the GPU to compute a lot of data.")).toBeNull();
  });
});

describe("a label after a steps heading", () => {
  it("opens its own section: its imperative is a request again, not a step", () => {
    const d = [
      "### Steps to reproduce",
      "",
      "1. Open the report page",
      "",
      "**Proposed solution:** Add a flag to export the report as CSV.",
    ].join("\n");
    expect(findAsk("Export the report", d)).toBe("Add a flag to export the report as CSV.");
  });
});
