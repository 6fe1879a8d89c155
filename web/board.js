// The board's only script: served as a file (the CSP allows no inline script), writes with textContent
// only (issue titles are anyone's text), and reads the same JSON as the API's users:
// GET /api/repos/{owner}/{repo}/tasks. Filters and sort change the list without a reload and are kept in
// the address, so a filtered board can be bookmarked or shared.
const repository = document.getElementById("repository").dataset.repository;
const api = `/api/repos/${repository}/tasks`;
const form = document.getElementById("filters");
const tbody = document.querySelector("#tasks tbody");
const more = document.getElementById("more");
const errorBox = document.getElementById("error");
const FIELDS = ["q", "kind", "approved", "sort", "needsHuman", "duplicates"];
// The personas and the kinds' names, as the server defines them (src/core/contract.ts), put into the page.
const contract = JSON.parse(document.getElementById("repository").dataset.contract);
const PERSONAS = contract.personas.map((p) => [p.key, p.icon, p.name]);
const KINDS = Object.fromEntries(Object.entries(contract.kinds).map(([kind, names]) => [kind, names.label]));

let nextCursor = null;
let shown = 0;
let generation = 0;
let pollTimer;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The filters as query parameters, leaving out the defaults. */
function filterParams() {
  const params = new URLSearchParams();
  for (const name of FIELDS) {
    const input = form.elements.namedItem(name);
    const value = input.type === "checkbox" ? (input.checked ? "true" : "") : input.value.trim();
    if (value && !(name === "sort" && value === "-score")) params.set(name, value);
  }
  return params;
}

/** The address's query, read into the controls at start (a shared link opens as it was). */
function readAddress() {
  const params = new URLSearchParams(location.search);
  for (const name of FIELDS) {
    const input = form.elements.namedItem(name);
    const value = params.get(name);
    if (value === null) continue;
    if (input.type === "checkbox") input.checked = value === "true";
    else input.value = value;
  }
}

function age(iso) {
  if (!iso) return "";
  const days = Math.max(0, (Date.now() - Date.parse(iso)) / 86_400_000);
  if (days < 1) return "today";
  if (days < 2) return "1 day";
  if (days < 60) return `${Math.floor(days)} days`;
  if (days < 730) return `${Math.floor(days / 30.44)} months`;
  return `${Math.floor(days / 365.25)} years`;
}

function safeUrl(url) {
  return /^https?:\/\//i.test(url) ? url : "#";
}

function row(task, rank) {
  const tr = el("tr");
  tr.dataset.number = String(task.number);
  tr.append(el("td", "num", String(rank)));
  const issue = el("td");
  const link = el("a", "", `#${task.number} ${task.title}`);
  link.href = safeUrl(task.url);
  link.rel = "noopener noreferrer";
  issue.append(link);
  // The author's own sentence stating the request or problem (the report's reading.ask), as every surface shows it.
  if (task.ask) issue.append(el("div", "ask", `Asks: “${task.ask}”`));
  // Likely a repeat of an earlier issue of the same repository (duplicateOf): a link to that one.
  if (task.duplicateOf) {
    const dup = el("div", "dup", "Possibly the same as ");
    const earlier = el("a", "", `#${task.duplicateOf}`);
    earlier.href = safeUrl(task.url.replace(/\/\d+$/, `/${task.duplicateOf}`));
    earlier.rel = "noopener noreferrer";
    dup.append(earlier);
    issue.append(dup);
  }
  tr.append(issue);
  tr.append(el("td", "num score", task.score.toFixed(1)));
  const personas = el("td", "personas");
  personas.setAttribute(
    "aria-label",
    PERSONAS.map(([id, , name]) => `${name} ${task.personas[id]}`).join(", "),
  );
  for (const [id, icon, name] of PERSONAS) {
    const span = el("span", "", `${icon}\u00a0${task.personas[id]}`);
    span.title = name;
    personas.append(span);
  }
  tr.append(personas);
  tr.append(el("td", "kind", KINDS[task.kind] ?? task.kind));
  tr.append(el("td", task.approved ? "yes" : "no", task.approved ? "Approved" : "No"));
  tr.append(el("td", task.needsHuman ? "human" : "no", task.needsHuman ? "Needs a human" : "–"));
  const opened = el("td", "age", age(task.createdAt));
  if (task.createdAt) opened.title = task.createdAt;
  tr.append(opened);
  return tr;
}

function showProgress(backfill, calibration) {
  const text = document.getElementById("progress-text");
  const bar = document.getElementById("progress");
  if (backfill.state === "done") {
    // No number here: the count below is the one count of open issues (the backfill's own tally misses
    // issues opened since, and those it skipped).
    text.textContent = "Backlog scored; new and edited issues are scored as they arrive.";
    bar.hidden = true;
  } else {
    text.textContent =
      backfill.state === "queued"
        ? "The backlog is queued for scoring; it starts shortly."
        : `Scoring the backlog: ${backfill.done} ${backfill.total ? `of ${backfill.total} ` : ""}issues so far.`;
    bar.max = Math.max(1, backfill.total);
    bar.value = Math.min(backfill.done, bar.max);
    bar.hidden = false;
  }
  const cal = document.getElementById("calibration");
  cal.hidden = !calibration?.used;
  if (calibration?.used)
    cal.textContent = `Learned from ${calibration.closedIssues} closed issues of this repository.`;
}

function showError(message, unauthenticated) {
  errorBox.textContent = message;
  errorBox.hidden = false;
  document.getElementById("sign-in").hidden = !(unauthenticated && signIn !== "off");
  document.getElementById("progress-text").textContent = "";
}

async function fetchPage(params) {
  const response = await fetch(`${api}?${params}`, { headers: { accept: "application/json" } });
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = body?.error?.message ?? `The server answered ${response.status}.`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}

/** The first page for the current filters; later pages come with "Show more". */
async function load() {
  const mine = ++generation;
  const params = filterParams();
  history.replaceState(null, "", params.size ? `?${params}` : location.pathname);
  const csv = new URLSearchParams(params);
  csv.set("format", "csv");
  document.getElementById("csv").href = `${api}?${csv}`;
  try {
    const page = await fetchPage(params);
    if (mine !== generation) return; // a newer filter won
    errorBox.hidden = true;
    document.getElementById("sign-in").hidden = true;
    form.hidden = false;
    showProgress(page.backfill, page.calibration);
    tbody.replaceChildren(...page.tasks.map((t, i) => row(t, i + 1)));
    shown = page.tasks.length;
    nextCursor = page.nextCursor;
    more.hidden = !nextCursor;
    document.getElementById("count").textContent =
      page.total === 0
        ? "No open issues match."
        : `${page.total} open issue${page.total === 1 ? "" : "s"}${params.size ? " match" : ""}, highest value first unless sorted otherwise.`;
    schedulePoll(page.backfill.state !== "done");
  } catch (error) {
    if (mine !== generation) return;
    form.hidden = error.status === 401 || error.status === 404 || error.status === 503;
    tbody.replaceChildren();
    more.hidden = true;
    document.getElementById("count").textContent = "";
    showError(error.status ? error.message : "The server could not be reached.", error.status === 401);
  }
}

async function loadMore() {
  if (!nextCursor) return;
  const params = filterParams();
  params.set("cursor", nextCursor);
  more.disabled = true;
  try {
    const page = await fetchPage(params);
    tbody.append(...page.tasks.map((t, i) => row(t, shown + i + 1)));
    shown += page.tasks.length;
    nextCursor = page.nextCursor;
    more.hidden = !nextCursor;
  } catch (error) {
    showError(error.message, error.status === 401);
  } finally {
    more.disabled = false;
  }
}

/** While the backfill runs, the first page is refreshed every few seconds (unless more were opened). */
function schedulePoll(running) {
  clearTimeout(pollTimer);
  if (running)
    pollTimer = setTimeout(() => {
      if (shown <= 100) void load();
    }, 3000);
}

/** "in" (with the login shown), "out" (sign-in is offered on a 401), or "off" (not configured here). */
let signIn = document.getElementById("repository").dataset.signIn === "on" ? "out" : "off";
async function whoAmI() {
  if (signIn === "off") return;
  try {
    const response = await fetch("/auth/me", { headers: { accept: "application/json" } });
    if (!response.ok) return;
    const me = await response.json();
    if (!me?.login) return;
    signIn = "in";
    const who = document.getElementById("who");
    who.textContent = `Signed in as ${me.login}`;
    who.hidden = false;
    document.getElementById("sign-out").hidden = false;
  } catch {
    // sign-in is optional: public boards need none
  }
}

document.getElementById("sign-in-link").href =
  `/auth/github/login?return_to=${encodeURIComponent(location.pathname + location.search)}`;
let typing;
form.addEventListener("input", (event) => {
  clearTimeout(typing);
  // Typing in the search box waits for a pause; the other controls apply at once.
  typing = setTimeout(load, event.target.id === "q" ? 250 : 0);
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  void load();
});
more.addEventListener("click", () => void loadMore());
readAddress();
await whoAmI();
void load();
