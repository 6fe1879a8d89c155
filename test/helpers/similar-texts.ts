/**
 * Issue texts for the similar-issues tests of the App and the Action: a report, the same report filed again in
 * other words, an unrelated one, and another unrelated one. Invented here, not taken from any tracker.
 */
export const FIRST = {
  title: "Export to CSV fails on empty reports",
  body: "When a report has no rows, clicking Export CSV throws `TypeError: rows is undefined` in exportReport and no file is downloaded. Steps: open an empty report, click Export CSV.",
};
export const AGAIN = {
  title: "CSV export fails when the report is empty",
  body: "Clicking Export CSV on a report with no rows throws TypeError: rows is undefined in exportReport, and nothing is downloaded.",
};
export const OTHER = {
  title: "Dark mode for the settings page",
  body: "The settings page ignores the dark theme: its background stays white at night.",
};
export const MORE = {
  title: "Keyboard shortcut to open the search box",
  body: "Power users want to press / to focus the search field instead of reaching for the mouse.",
};
