import { describe, expect, it } from "@jest/globals";
import { authorText, codeTerms, urlTail } from "../../src/core/similar/features.js";
import { isSeries, SIMILAR_METHOD, SimilarIndex } from "../../src/core/similar/similar-index.js";

/** The similar-issues method's pieces (issue 32): invented issues, no benchmark text. */
const tokens = (title: string) => new SimilarIndex().features(title, "").title;

describe("similar issues: the method's pieces", () => {
  it("reads code terms: identifiers, a stack frame's class and method, error messages with digits as 0", () => {
    const terms = codeTerms(
      "Boom in parseWidget\nat com.example.widgets.WidgetParser.parse(WidgetParser.java:42)\n" +
        "java.lang.IllegalStateException: widget 17 has no frame",
    );
    expect(terms.has("parsewidget")).toBe(true);
    expect(terms.has("widgetparser.parse")).toBe(true);
    expect(terms.has("widgetparser.java")).toBe(true);
    expect(terms.has("!widget 0 has no frame")).toBe(true);
  });

  it("keeps a link's last path part (an advisory, an upstream issue), not its address", () => {
    expect(urlTail("https://nvd.example.org/vuln/detail/CVE-2031-12345]")).toBe("CVE-2031-12345");
    expect(urlTail("https://tracker.example.org/browse/WIDGET-77?focus=1#c2")).toBe("WIDGET-77");
    expect(urlTail("https://example.org/")).toBe("");
    expect(
      authorText("see [the advisory](https://a.example/adv/GHSA-1) and https://b.example/x/y.", false, true),
    ).toBe("see the advisory GHSA-1 and  y ");
    expect(authorText("see [the advisory](https://a.example/adv/GHSA-1)", false)).toBe("see the advisory");
    // Two reports naming the same advisory only through links share it as a word.
    const index = new SimilarIndex();
    const a = index.features("Upgrade the widget library", "Fixes https://a.example/adv/CVE-2031-4242");
    expect(a.words.has("4242")).toBe(true);
    expect(
      index.features("Upgrade the widget library", "Fixes https://a.example/adv/x").words.has("adv"),
    ).toBe(false);
  });

  it("tells a series from one issue twice", () => {
    expect(
      isSeries(
        tokens("Drop the legacy parser in module-alpha"),
        tokens("Drop the legacy parser in module-beta"),
      ),
    ).toBe(true);
    expect(isSeries(tokens("Build images on Debian 11"), tokens("Build images on Debian 12"))).toBe(true);
    expect(isSeries(tokens("Export fails on empty reports"), tokens("Export fails on empty reports"))).toBe(
      false,
    );
    expect(isSeries(tokens("Export fails on empty reports"), tokens("Import is slow"))).toBe(false);
  });

  it("claims a repeat as a duplicate, not a series' sibling, and ranks the repeat first", () => {
    const index = new SimilarIndex(SIMILAR_METHOD);
    const issues: [number, string, string][] = [
      [
        1,
        "Export to CSV fails on empty reports",
        "Clicking Export CSV on a report with no rows shows a blank page: TypeError: rows is undefined in exportCsv.",
      ],
      [
        2,
        "Dark mode for the dashboard",
        "Users asked for a dark theme; the dashboard is too bright at night.",
      ],
      [
        3,
        "Drop the legacy parser in module-alpha",
        "The legacy parser is replaced by the streaming one; remove it from this module.",
      ],
      [4, "Slow search on large projects", "Searching a project of 50,000 documents takes 12 seconds."],
      [
        5,
        "Drop the legacy parser in module-beta",
        "The legacy parser is replaced by the streaming one; remove it from this module.",
      ],
      [
        6,
        "CSV export fails on an empty report",
        "Export CSV with no rows: blank page, TypeError: rows is undefined in exportCsv.",
      ],
    ];
    for (const [n, t, b] of issues) index.set(n, index.features(t, b));
    const repeat = index.query(index.featuresOf(6)!, 3, (k) => k < 6, 6);
    expect(repeat[0]).toMatchObject({ key: 1, duplicate: true });
    const sibling = index.query(index.featuresOf(5)!, 3, (k) => k < 5, 5);
    expect(sibling[0]).toMatchObject({ key: 3, duplicate: false });
    expect(repeat.every((h) => h.score >= 0 && h.score <= 1)).toBe(true);
  });
});
