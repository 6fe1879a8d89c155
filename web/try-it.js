// The try-it page's only script: served as a file (the CSP allows no inline script) and written with
// textContent only, so task text and reasoning can never become markup.
const form = document.getElementById("score-form");
const errorBox = document.getElementById("error");
const report = document.getElementById("report");
const policy = JSON.parse(document.getElementById("main").dataset.policy || "{}");
// With AUTH=keys the form asks for a key; it lives in the input only (no storage), so a reload forgets it.
const keyInput = document.getElementById("api-key");
if (document.getElementById("main").dataset.keys === "true")
  document.getElementById("key-field").hidden = false;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, "");
}

/** The same three conditions the server applies (its thresholds are in the page's data-policy). */
function conditions(scores) {
  const avg = scores.reduce((a, b) => a + b, 0) / scores.length;
  const min = Math.min(...scores);
  const supporters = scores.filter((s) => s >= policy.supportScore).length;
  return [
    {
      passed: avg >= policy.minAverage,
      text: `Average ${fmt(avg)} ${avg >= policy.minAverage ? "is at least" : "is below"} ${fmt(policy.minAverage)}`,
    },
    {
      passed: min >= policy.minScore,
      text: `Lowest score ${fmt(min)} ${min >= policy.minScore ? "is at least" : "is below"} ${fmt(policy.minScore)} (no strong objection)`,
    },
    {
      passed: supporters >= policy.minSupporters,
      text: `${supporters} of ${scores.length} personas score ${fmt(policy.supportScore)} or more (${fmt(policy.minSupporters)} needed)`,
    },
  ];
}

function showError(message) {
  report.hidden = true;
  errorBox.textContent = message;
  errorBox.hidden = false;
}

// The kinds' phrases, as the server defines them (src/core/contract.ts), put into the page.
const KIND_WORDS = Object.fromEntries(
  Object.entries(JSON.parse(document.getElementById("main").dataset.contract).kinds).map(([kind, names]) => [
    kind,
    names.phrase,
  ]),
);

/** What the reader found: the kind, and each piece of evidence in the author's own words. */
function readingLines(reading) {
  if (!reading) return [];
  const sure = `${Math.round(reading.kindConfidence * 100)}% sure`;
  const kind = el(
    "p",
    "reading",
    // A pull request's text without its change: no kind is named (the kind model reads issues).
    reading.pullRequest && !reading.change
      ? "Read as a pull request's description"
      : `Read as ${KIND_WORDS[reading.kind] ?? reading.kind} (${reading.severity ? `${reading.severity.replace("_", " ")}, ` : ""}${sure})`,
  );
  const evidence = reading.evidence.map((e) =>
    el("li", "evidence", `${e.type.replace("_", " ")}: “${e.quote}”`),
  );
  if (evidence.length === 0) return [kind];
  const list = el("ul", "evidence-list");
  list.setAttribute("aria-label", "Evidence the reader found");
  list.append(...evidence);
  return [kind, list];
}

function showReport(data) {
  errorBox.hidden = true;
  const c = data.consensus;
  const consensus = document.getElementById("consensus");
  consensus.replaceChildren(
    // What the author asks, first, in the author's words; nothing where the reader found no such sentence.
    ...(data.reading?.ask ? [el("p", "ask", `Asks: “${data.reading.ask}”`)] : []),
    el(
      "p",
      `verdict ${c.approved ? "approved" : "rejected"}`,
      c.approved ? "✅ Approved" : "❌ Not approved",
    ),
    el("p", "", `Average ${fmt(c.avgScore)} · lowest ${c.minScore} · highest ${c.maxScore}`),
    ...readingLines(data.reading),
  );
  const list = document.getElementById("conditions");
  list.replaceChildren(
    ...conditions(data.expertScores.map((e) => e.score)).map((cond) =>
      el("li", cond.passed ? "passed" : "failed", `${cond.passed ? "✅" : "❌"} ${cond.text}`),
    ),
  );
  const cards = document.getElementById("personas");
  cards.replaceChildren(
    ...data.expertScores.map((e) => {
      const card = el("article", "card");
      card.setAttribute("aria-label", `${e.expert}: ${e.score} out of 10`);
      const heading = el("h3");
      heading.append(el("span", "icon", e.icon), document.createTextNode(e.expert));
      heading.querySelector(".icon").setAttribute("aria-hidden", "true");
      card.append(heading, el("p", "score", `${e.score}/10`), el("p", "reasoning", e.reasoning));
      return card;
    }),
  );
  report.hidden = false;
  document.getElementById("report-heading").focus?.();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = document.getElementById("score-button");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const headers = { "content-type": "application/json" };
    const key = keyInput.value.trim();
    if (key) headers.authorization = `Bearer ${key}`;
    const response = await fetch("/score-task", {
      method: "POST",
      headers,
      body: JSON.stringify({
        task: document.getElementById("title").value,
        description: document.getElementById("description").value,
      }),
    });
    const body = await response.json().catch(() => undefined);
    if (!response.ok) {
      showError(body?.error?.message ?? `The server answered ${response.status}.`);
      return;
    }
    showReport(body);
  } catch {
    showError("The server could not be reached.");
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
});
