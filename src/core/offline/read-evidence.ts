/**
 * What the author gave, each piece with the author's own words: a reasoning that relies on a piece of
 * evidence quotes it, so a reader can check it. Pure and deterministic; each finder looks at lines of the
 * description (template prompts in HTML comments removed) and returns the first quote it finds.
 */
export const EVIDENCE_TYPES = [
  "demand",
  "acceptance",
  "steps",
  "trace",
  "versions",
  "expected_actual",
  "screenshot",
  "code",
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export interface Evidence {
  type: EvidenceType;
  quote: string;
}

const QUOTE_MAX = 140;
const MAX_CHARS = 70_000;

/** Numbers written as words, as people write counts of people ("twelve customers", "about forty integrators"). */
const NUMBER_WORD =
  "(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundreds|a thousand|thousands|millions|a dozen|dozens|several hundred|several thousand)";
const WHO =
  "(?:users?|customers?|clients?|integrators?|developers?|teams?|companies|organi[sz]ations?|orgs|people|members|subscribers|partners|accounts|buyers|merchants|admins?|maintainers|contributors|sites|stores|shops|installs?|installations|downloads|votes|upvotes|reactions|thumbs[- ]up|👍|tickets|support tickets|requests|complaints|stars|seats|instances|servers|devices|sessions|times a (?:day|week|month)|per (?:day|week|month))";
const DEMAND_RE = new RegExp(
  `(?:\\b\\d[\\d,.]*\\s*(?:k|m)?\\+?|\\b${NUMBER_WORD}|\\b\\d+\\s*%|\\b\\d+\\s*percent)(?:\\s+[\\p{L}-]+){0,3}?\\s+${WHO}(?![\\p{L}])`,
  "iu",
);
const ACCEPT_LABEL_RE =
  /^[\s#>*_-]*(?:acceptance(?: criteria| tests?)?|done when|definition of done|success looks like|success criteria|success means|requirements?|expected outcome|we(?:'ll| will) know (?:it(?:'s| is) done|this is done) when|it(?:'s| is) done when|criterios de aceptación|critères d'acceptation|akzeptanzkriterien|验收标准|受け入れ条件|критерии приёмки)\b[^\n:：]{0,20}[:：]?\s*(.*)$/iu;
const LIST_ITEM_RE = /^\s*(?:[-*+•]|\d{1,2}[.)]|\[[ xX]\])\s+\S/;
const TASK_ITEM_RE = /^\s*[-*+]\s+\[[ xX]\]\s+(\S.*)$/;
const NUMBERED_RE = /^\s*(?:\d{1,2}[.)]|step \d+[:.])\s+(\S.*)$/i;
const STEPS_HEAD_RE =
  /^[\s#*_]*(?:steps to reproduce|to reproduce|reproduction steps|how to reproduce|repro(?:duction)? steps|steps|pasos para reproducir|étapes pour reproduire|schritte zur reproduktion|复现步骤|重现步骤|再現手順|шаги воспроизведения)\b/iu;
const TRACE_RE =
  /Traceback \(most recent call last\)|^\s*at [\w$.<>[\]/:-]+\s*\(|^\s*at [\w$.]+\.[\w$<>]+\(|Exception in thread|\b[A-Z]\w*(?:Error|Exception)\b[:(]|^\s*File "[^"]+", line \d+|^panic: |thread '[^']*' panicked at|^goroutine \d+ \[|\bSIGSEGV\b|Segmentation fault|^fatal error: |^\s*#\d+\s+0x[0-9a-f]+|^error(?:\[E\d+\])?: /m;
const VERSION_RE =
  /\b(?:v\d+(?:\.\d+)+|\d+\.\d+\.\d+(?:[-+][\w.]+)?|(?:version|release|v)\s*:?\s*\d+(?:\.\d+)+|(?:Node(?:\.js)?|Python|Java|JDK|Go|Rust|rustc|Ruby|PHP|Perl|Chrome|Chromium|Firefox|Safari|Edge|iOS|iPadOS|Android|Windows|macOS|Ubuntu|Debian|Fedora|CentOS|Alpine|React|Vue|Angular|Next\.js|Django|Rails|Spring|PostgreSQL|Postgres|MySQL|MariaDB|Redis|Kubernetes|Docker|VS ?Code|Xcode|Electron|TypeScript|npm|pnpm|yarn|gcc|clang|OpenCV|TensorFlow|CUDA|Bitcoin Core)\s+v?\d+(?:\.\d+)*)\b/;
const EXPECTED_RE =
  /^[\s#*_>-]*(?:expected(?: behaviou?r| result| output| outcome)?|actual(?: behaviou?r| result| output| outcome)?|current behaviou?r|what (?:i )?expected|what happen(?:s|ed) instead|comportamiento esperado|comportement attendu|erwartetes verhalten|期望行为|预期结果|期待される動作|ожидаемое поведение)\b|\b(?:but|and) instead\b|\bshould\b[^.\n]{1,80}\b(?:but|instead)\b|\binstead of\b[^.\n]{1,60}\b(?:it|the)\b/iu;
const IMAGE_RE = /!\[([^\]]{0,120})\]\([^)\s]{1,500}\)|<img\b[^>]{0,500}>/i;
const FENCE_RE = /(```|~~~)[^\n]*\n([\s\S]*?)(?:\1|$)/g;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= QUOTE_MAX ? t : `${t.slice(0, QUOTE_MAX - 1).trimEnd()}…`;
}

/** The sentence of `line` that holds `index` (a quote is a whole thought, not a fragment). */
function sentenceAround(line: string, index: number): string {
  const before = line.slice(0, index);
  const start = Math.max(before.lastIndexOf(". "), before.lastIndexOf("! "), before.lastIndexOf("? "));
  const rest = line.slice(index);
  const endRel = rest.search(/[.!?](?:\s|$)/);
  return line.slice(start < 0 ? 0 : start + 2, endRel < 0 ? line.length : index + endRel + 1);
}

/** The evidence in a description, at most one quote of each type, in EVIDENCE_TYPES order. */
export function readEvidence(title: string, description: string): Evidence[] {
  const raw = description.length > MAX_CHARS ? description.slice(0, MAX_CHARS) : description;
  const text = raw.replace(/<!--[\s\S]*?(?:-->|$)/g, "\n");
  const found = new Map<EvidenceType, string>();
  const put = (type: EvidenceType, quote: string) => {
    const q = clip(quote);
    if (!found.has(type) && /[\p{L}\p{N}]/u.test(q)) found.set(type, q);
  };

  // Code blocks: a stack trace or error output, else code.
  const prose = text.replace(FENCE_RE, (_block, _fence, body: string) => {
    const lines = body.split("\n");
    const traceLine = lines.find((l) => TRACE_RE.test(l));
    if (traceLine) put("trace", traceLine);
    else {
      const first = lines.find((l) => l.trim());
      if (first) put("code", first);
    }
    return "\n";
  });

  const lines = prose.split("\n");
  let numbered: string[] = [];
  let stepsHeading = false;
  const tasks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (!trimmed || /^\s*>/.test(line)) continue; // quoted text is someone else's words
    const image = IMAGE_RE.exec(trimmed);
    if (image) put("screenshot", image[0]);
    const withoutLinks = trimmed.replace(/\[([^\]]*)\]\([^)]*\)/g, " ").replace(/https?:\/\/\S+/g, " ");

    // A label may open the line or a later sentence of it ("… this quarter. Acceptance: one row per task.").
    for (const sentence of withoutLinks.split(/(?<=[.!?])\s+/)) {
      const accept = ACCEPT_LABEL_RE.exec(sentence);
      if (!accept) continue;
      const after = accept[1]!.trim();
      // "Requirements:" or "Acceptance:" alone introduces a list: quote the label and its first item.
      const next = lines.slice(i + 1).find((l) => l.trim());
      if (after && /[\p{L}\p{N}]/u.test(after)) put("acceptance", sentence);
      else if (next && LIST_ITEM_RE.test(next)) put("acceptance", `${sentence} ${next.trim()}`);
    }
    const task = TASK_ITEM_RE.exec(trimmed);
    if (task) tasks.push(trimmed);

    if (STEPS_HEAD_RE.test(trimmed)) stepsHeading = true;
    const step = NUMBERED_RE.exec(trimmed);
    if (step) numbered.push(trimmed);
    else if (numbered.length < 2 && !LIST_ITEM_RE.test(trimmed)) numbered = [];
    if (numbered.length >= 2 && (stepsHeading || numbered.length >= 3))
      put("steps", numbered.slice(0, 2).join(" "));

    const demand = DEMAND_RE.exec(withoutLinks);
    if (demand) put("demand", sentenceAround(withoutLinks, demand.index));
    if (TRACE_RE.test(trimmed)) put("trace", trimmed);
    const version = VERSION_RE.exec(withoutLinks);
    if (version) put("versions", withoutLinks);
    if (EXPECTED_RE.test(withoutLinks)) {
      const next = lines.slice(i + 1).find((l) => l.trim());
      const label = /[:：]\s*$/.test(withoutLinks) && next ? `${withoutLinks} ${next.trim()}` : withoutLinks;
      put("expected_actual", label);
    }
  }
  if (tasks.length >= 2) put("acceptance", tasks[0]!);
  // A version in the title ("Crash on Android 14") is the author's evidence too.
  if (!found.has("versions")) {
    const v = VERSION_RE.exec(title);
    if (v) put("versions", title);
  }
  return EVIDENCE_TYPES.filter((t) => found.has(t)).map((type) => ({ type, quote: found.get(type)! }));
}
