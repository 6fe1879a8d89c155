/**
 * The structural reading of a task, before any theme words: what kind of task the title says it is, how
 * severe a defect is, whether the description is the author's own text or an unfilled template, and what
 * evidence it carries (steps, traces, versions, numbers, acceptance criteria). These signals hold in any
 * project; the judge's numbers for them are fitted on real maintainers' decisions (see judge-model.ts).
 *
 * Every pattern here is linear: anchored alternations of literal words, no nested unbounded repeats.
 */
import { HTML_COMMENT_RE, replaceFences, URL_RE } from "./prose.js";

export type TaskKind = "bug" | "feature" | "refactor" | "docs" | "chore" | "question" | "ping" | "junk";
export type Severity = "data_loss" | "security" | "crash" | "wrong_result" | "cosmetic";
/** The severities that make a defect severe: it is a bug whatever the title's verb, and it ranks first. */
export const isSevere = (severity: string | null | undefined): boolean =>
  severity === "security" || severity === "data_loss" || severity === "crash";
export type JunkReason =
  | "no_title"
  | "one_word_title"
  | "placeholder_title"
  | "unfilled_template"
  | "no_content"
  | "advertising"
  | "accident_or_test"
  | "tracker_note";

export interface TaskStructure {
  kind: TaskKind;
  /** The title words that showed the kind, quoted in reasoning (null when it is the default, a feature). */
  kindCue: string | null;
  severity: Severity | null;
  severityCue: string | null;
  /** A refactor that pays debt down, or a change that adds it ("hard-code", "copy-paste"). */
  debt: "removes" | "adds" | null;
  debtCue: string | null;
  /** Generated or bulk content (hundreds of pages, auto-generated articles). */
  bulk: boolean;
  junk: JunkReason | null;
  /** The title carries a tag such as "[Bug]", "feat:" or "Feature request:". */
  titleTag: boolean;
  /** A version number in the title ("Thunderbird 115 support", "crashes since 2.3.1"). */
  titleVersion: boolean;
  titleQuestion: boolean;
  /** Characters of the title without its tag: specific titles are longer. */
  titleChars: number;
  /** The title starts with a verb in the imperative ("Add …", "Update …", "Remove …"): a work item. */
  titleImperative: boolean;
  /** The title or description asks as a user would ("please", "I would like", "feature request", "wish"). */
  userRequest: boolean;
  /** Questions in the author's own text. */
  questions: number;
  /** Words of the title without its tag and parentheses (CJK counts one word per two characters). */
  titleWords: number;
  /** Words the author wrote: template headings and prompts, code, links and quoted text removed. */
  ownWords: number;
  /** Share of the description's non-empty lines that are template scaffolding (headings, prompts, checkboxes). */
  templateShare: number;
  /**
   * The share of the description's text (in characters) that is the template's and left unanswered: prompts,
   * labels, placeholders, and headings with nothing of the author's under them. A heading the author wrote
   * under ("## Why", then the reason) counts in templateShare (the fitted feature, by lines) but not here, and
   * a long paragraph weighs as much as its text: what a reasoning may call "template text".
   */
  promptShare: number;
  templateLines: number;
  steps: boolean;
  code: boolean;
  versions: boolean;
  /** Numbers about people or usage: "300 users", "40% of sessions", "12 upvotes". */
  demand: boolean;
  /** What done looks like: acceptance criteria, expected behaviour, a task list of the author's own. */
  acceptance: boolean;
  /** Expected versus actual behaviour, or "it should … instead". */
  expected: boolean;
  screenshot: boolean;
  links: number;
  /** Claims of value without evidence ("game-changer", "revenue-critical"). */
  hype: number;
  /** The description has an "out of scope" list: what it names there is not part of the task. */
  outOfScope: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Title

const TAG_RE =
  /^\s*(?:\[([^\]]{1,40})\]\s*[-:–]?\s*|\(([^)]{1,30})\)\s*[-:]?\s*|(feat|feature|fix|bug|chore|docs|refactor|perf|test|build|ci|style|rfc|fr|feature request|bug report|enhancement|proposal|idea|request|question)(?:\([^)]{0,30}\))?!?\s*[:-]\s*|\*+\s*(feature request|bug)\s*\*+\s*)/i;
const PARENS_RE = /\([^)]{0,80}\)/g;

const TAG_KINDS: [RegExp, TaskKind][] = [
  [/^(bug|fix|bug report|crash|regression|defect|error)$/i, "bug"],
  [/^(docs?|documentation)$/i, "docs"],
  [/^(chore|build|ci|deps|dependencies|release)$/i, "chore"],
  [/^(refactor|perf|cleanup|tech debt)$/i, "refactor"],
  [/^(question|help|support|q)$/i, "question"],
  [/^(feat|feature|fr|feature request|enhancement|proposal|idea|request|rfc|feat request)$/i, "feature"],
];

/** Each rule: a kind (and severity) and the title words that show it. First match wins, in this order. */
// "Bump" alone (or "bump this") is a ping; "Bump axios from 1.6.0 to 1.6.8" is a dependency update.
const PING_RE =
  /^\W*(?:any (?:update|news|progress)s?|\+1|bump(?=\s*[!.?]*\s*$|\s+(?:this|thread|issue|pls|please)\b)|still (?:nothing|broken|waiting|no)|is this (?:project )?(?:dead|abandoned)|eta\??|status\??|why (?:haven.?t|hasn.?t|isn.?t) (?:you|this|it|there)|when (?:will|is) (?:this|it|the next))\b/i;
const SUPPORT_RE =
  /^(?:how (?:do|can|should|would|to) (?:i|we|you)?\b|how to\b|why (?:does|is|do|did|are|was|isn'?t|doesn'?t|my)\b|what (?:is|does|are)\b|where (?:is|are|do|can)\b|can (?:i|you|someone) (?:help|explain|tell)\b|question\b|help\b|help needed\b|can (?:you|someone) (?:give|tell|explain|show)\b)|^(?:如何|怎么|怎样|请问)|^как\s/i;
const SEVERITY_RULES: [Severity, RegExp][] = [
  [
    "security",
    /\b(?:security|vulnerab\w*|cve-\d+|xss|csrf|sql injection|exploit\w*|rce|privilege escalation|auth(?:entication)? bypass|leak(?:s|ed|ing)? (?:of )?(?:secrets?|tokens?|passwords?|credentials?|keys?|data)|exposes? (?:secrets?|tokens?|passwords?|credentials?))\b/i,
  ],
  [
    "data_loss",
    /\b(?:data loss|loses? (?:all |my |the |user )?(?:data|files|work|changes|settings|notes|history)|lost (?:data|files|work|changes)|(?:data|files|records|posts|secrets|notes) (?:were |are |get |got )?(?:deleted|lost|wiped|erased)|(?:delet|eras|wip|los)\w* (?:all |every |user |my |the |of |our |their )*(?:\w+ )?(?:data|files|records|notes|posts|messages|history|work|changes|settings|entries|documents|photos)|data deletion|corrupt\w*|wipes?|catastrophic)\b/i,
  ],
  [
    "crash",
    /\b(?:crash\w*|panic\w*|segfault\w*|fatal|freez\w*|hangs?|hung|kills?|closes (?:when|unexpectedly|itself)|won'?t (?:start|launch|load|open|boot)|fails? to (?:start|launch|load|open|boot|build|compile|install)|(?:build|compilation|install) (?:fails?|failed|error)|unusable|exception|out of memory|oom|stack overflow)\b/i,
  ],
  // Exception and error type names ("NullPointerException", "TypeError: …"), and the commonest bug words of
  // the languages the judge partly reads.
  ["crash", /\b[A-Z]\w*(?:Exception|Error)\b|崩溃|闪退|クラッシュ|вылет|падает|крэш/],
  [
    "cosmetic",
    /\b(?:typos?|spelling|misspel\w*|grammar|misaligned|alignment|cosmetic|wording|overlap\w*|cut off|truncated|padding|tooltip)\b/i,
  ],
  [
    "wrong_result",
    /\b(?:wrong|incorrect\w*|inaccurate|not (?:working|work|shown|showing|displayed|saved|saving|loading|resolved|found|included|including|updating|respected|applied)|(?:doesn'?t|does not|don'?t|do not|isn'?t|is not|can'?t|cannot|unable to) (?:work|show|load|save|open|find|resolve|connect|start|sync|render|display|be)|broken|bug|errors?|fails?|failed|failing|false (?:positive|negative)|regression|invalid|missing (?:from|in|after)|no longer|stopped working|issues? with|still exists?|(?:is|are|was|were) not (?:identical|closed|implemented|respected|correct))\b|报错|错误|出错|问题|エラー|不具合|ошибк\w*|не работает|проблем\w*|erreur|fehler|no funciona/i,
  ],
];
const DEBT_ADD_RE =
  /\b(?:hard-?cod\w*|copy[- ]?(?:and[- ])?past\w*|past\w* (?:the |this |a |that )?(?:same )?(?:\w+ )?(?:function|code|logic|helper)\w*|cop(?:y|ies|ying) (?:the |this |a |that )?(?:\w+ )?(?:helper|function|code|logic|module|file)s? (?:in)?to (?:each|every|all)|duplicat\w* (?:the |this )?(?:code|logic|function)|disabl\w* (?:the )?(?:tests?|lint\w*|checks?|ci)|skip (?:the )?tests|quick hack|temporary hack|monkey-?patch\w*|vendor(?:ing)? (?:a )?copy)\b/i;
const DEBT_REMOVE_RE =
  /\b(?:refactor\w*|clean ?up|extract\w*|deduplicat\w*|de-?duplicat\w*|simplif\w*|rewrit\w*|restructur\w*|technical debt|tech debt|remov\w* (?:dead|unused|duplicat\w*|deprecated|legacy)|drop\w* (?:dead|unused|deprecated|legacy)|decoupl\w*|consolidat\w*|modulari[sz]\w*|type ?safety|migrat\w* (?:\w+ )?(?:tests?|code|codebase) to)\b/i;
// "Document" only as the title's first word, the verb ("Document the retry policy"); as a noun it is what a
// feature works on ("Export the document to PDF").
const DOCS_RE =
  /^document\b|\b(?:docs?|documentation|documented|readme|changelog|wiki|tutorial|guide|manual|examples?|example ?site|typo in (?:the )?(?:docs?|readme))\b/i;
const CHORE_RE =
  /\b(?:bump\w*|upgrad\w*|update (?:to|deps|dependencies|[\w.-]+ to)|dependenc\w*|release|ci|github actions|travis|deprecat\w*|drop (?:support|python|node|php)|rebuild|lint\w*|helm|docker ?image|image bump|migrat\w* (?:from|ci|to)|telemetry|v?\d+(?:\.\d+)+ (?:is|are) out|new version)\b/i;
const IMPERATIVE_RE =
  /^(?:add|update|remove|fix|support|allow|use|make|implement|migrate|drop|bump|upgrade|create|enable|disable|move|rename|replace|improve|refactor|document|release|expose|extract|split|merge|convert|switch|handle|show|hide|set|change|introduce|deprecate|delete|clean|publish|port|integrate|provide)\b/i;
const REQUEST_RE =
  /\b(?:please|pls|plz|feature request|request(?:ing|ed)?|wish(?:list)?|would (?:be|love)|would like|i'?d (?:like|love)|i (?:want|need|hope)|hope to|could you|can you|suggest(?:ion)?|plans? (?:for|to)|any plans?|possible to)\b/i;
const FEATURE_VERB_RE =
  /^(?:please )?(?:add\w*|support\w*|allow\w*|enable|implement\w*|provide|introduce|create|make|offer|integrat\w*|expose|let|option|ability|new|request)\b/i;
const BULK_RE =
  /\b(?:(?:generat\w*|creat\w*|produc\w*|publish\w*) (?:\d[\d,]*|hundreds|thousands|bulk|mass|many|lots of) (?:of )?(?:\w+ )?(?:pages|posts|articles|listings|blogs?|landing pages|seo pages|products)|bulk[- ](?:generat\w*|creat\w*) (?:of )?(?:pages|content|articles|posts)|(?:auto|ai)[- ]?generat\w* (?:seo |blog |landing )?(?:pages|content|articles|posts|listings)|mass[- ]produc\w*|programmatic seo|content farm)\b/i;
const VERSION_RE = /\b(?:v?\d+\.\d+(?:\.\d+)*|v\d+|(?:[A-Z][\w-]*|[Vv]ersion|[Rr]elease) \d{1,4})\b/;
const PLACEHOLDER_TITLE_RE =
  /\b(?:(?:insert|enter|add) [^.?!]{0,40}\bhere\b|(?:title|name|summary) (?:here|goes here)|your (?:title|feature|issue) here|proposal name|short description|a clear and concise|\[?title\]?$)/i;
// A test post says so ("this is a test", "just a test", a text that is only "a test"); "added a guard and a
// test" is a pull request with a unit test.
const ACCIDENT_RE =
  /\b(?:by (?:accident|mistake)|please (?:delete|ignore|close) (?:this|it|me)|delete this|ignore this|(?:^|\b(?:just|only) )a test(?: issue| post)?\b(?! (?:for|of|case|suite|that|which|to))|test issue|testing issue|this is a test|wrong repo\w*|opened (?:by )?accident\w*)/i;
const HYPE_RE =
  /\b(?:game[- ]?changer|revolutionar\w*|10x|100x|huge (?:impact|win|value)|high[- ]impact|revenue[- ]critical|mission[- ]critical|must[- ]have|killer feature|massive(?:ly)?|skyrocket\w*|best[- ]in[- ]class|world[- ]class|disrupt\w*|next[- ]level|unlock\w* (?:huge|massive|enormous)|everyone (?:wants|needs)|all users (?:want|need))\b/gi;

// ---------------------------------------------------------------------------------------------------
// Description

const IMAGE_RE = /!\[[^\][\n]{0,300}\]\([^)\n]{0,500}\)|<img\b[^>]{0,500}>/gi;
const LINK_TEXT_RE = /\[([^\]\n]{0,300})\]\([^)\n]{0,500}\)/g;
const EMAIL_RE = /\S+@\S+\.\w+/g;
// A "Label:" line is a heading only when short (five words at most): "The log now shows the following:"
// introduces the author's own evidence.
export const HEADING_RE =
  /^\s*(?:#{1,6}\s|\*\*[^*\n]{1,150}\*\*\s*:?\s*$|__[^_\n]{1,150}__\s*:?\s*$|[-=*_]{3,}\s*$|[A-Z][^\s.!?:]*(?:[ \t]+[^\s.!?:]+){0,4}:\s*$)/;
/** A bold or underlined label at the start of a line ("**Feature Name:** …"): the rest is judged on its own. */
export const LABEL_RE = /^\s*(?:\*\*[^*\n]{1,80}\*\*|__[^_\n]{1,80}__)\s*:?\s*/;
const CHECKBOX_RE = /^\s*[-*+]\s+\[[ xX]?\]/;
const QUOTE_RE = /^\s*>/;
const LIST_RE = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/;
const NUMBERED_RE = /^\s*\d{1,3}[.)]\s+\S/;
/**
 * Template prompts: text addressed to the reporter, which an unfilled template leaves in place. These
 * are the shapes of GitHub's and most projects' templates (second-person instructions, "[...]"
 * placeholders, "_No response_"), not the text of any one project's template. "Provide a …", "Include …" and
 * "List …" are a template's only where they ask the reporter for something ("Provide a minimal code example",
 * "Include any log output"); "Provide a ServiceMonitor definition for prometheus-operator users" is a request.
 */
export const PROMPT_RE =
  /^\W*(?:a clear and concise|a (?:short|brief|detailed) description|describe\b|please (?:describe|provide|include|add (?:any|a|an|the) |explain|list|link|fill|search|check|note|make sure|use|read|attach|give|tell|share)|add any|if applicable|(?:provide (?:a|an|any|the)|include (?:a|an|any|the)|list (?:any|the|all))\b(?=.{0,120}\b(?:descri\w*|context|details?|information|info|screenshots?|steps|examples?|links?|versions?|logs?|output|code|snippets?|reproduc\w*|you|your|issue|problem|bug|feature|requests?|behaviou?r|alternatives?|changes?|tests?|motivation|use ?cases?|summary)\b)|explain\b|tell us|ex\.|e\.g\.|steps to reproduce the behaviou?r|what(?:'s| (?:is|are|would|should|did|do)) (?:the|your|you|other)\b|if you\b|(?:.{0,200}\b)?here[.!:]?\s*$|why (?:is|are|would|should) (?:this|it)\b|how (?:would|should|can|could) (?:this|it|we|you)\b|is your (?:feature request|problem|request)|one paragraph|fill (?:me|in|this|out)|insert\b|\(?note\b|\(?optional\b|n\/a\s*$|none\.?\s*$|no response|_no response_|i (?:have )?(?:searched|checked|read|agree|confirm|made sure|understand|am (?:aware|using the latest))|thanks?!?\s*$|thank you\.?\s*$)/i;
export const PLACEHOLDER_RE =
  /\[(?:\.\.\.|…)\]|\(fill [^)]{0,60}\)|\[[a-z ]{3,30} here\]|<[a-z ]{3,30} here>|\byyyy-mm-dd\b/i;
const STEPS_HEAD_RE =
  /\b(?:steps to reproduce|to reproduce|reproduction steps|how to reproduce|repro steps|reproduce|steps|pasos|étapes|schritte)\b|步骤|复现|重现|再現|手順|шаги|воспроизвед/i;
const ACCEPT_RE =
  /验收|期望|预期|受け入れ|критерии|\b(?:acceptance criteria|definition of done|done when|expected (?:behaviou?r|result|outcome|output)|should (?:be able to|return|show|display|allow|include|support|work|not)|must (?:be able to|return|show|allow|support|not)|success criteria|requirements?:)/i;
const EXPECTED_RE =
  /\b(?:expected|actual (?:behaviou?r|result)|should (?:be|have|show|return)|esperado|attendu|erwartet)\b|期望|预期|期待|ожида/i;
const DEMAND_RE =
  /\b\d[\d,.]{0,20}\s*(?:k\s+)?(?:%|percent|users|customers|downloads|installs|stars|votes|upvotes|people|teams|companies|organi[sz]ations|requests|tickets|sites|members|subscribers|clients|seats|instances|servers|devices|accounts|times a day|per day|per week|a day|a week)\b/i;
const OUT_OF_SCOPE_RE = /^\W*(?:out of scope|non-goals?|not in scope|won'?t do)\b/i;
const WORD_RE = /[\p{L}\p{N}]+/gu;
const CJK_TEST = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
const CJK_RE = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;

/** Words, counting text without spaces (Chinese, Japanese, Korean) as one word per two characters. */
function countWords(text: string): number {
  const cjk = text.match(CJK_RE)?.length ?? 0;
  if (cjk === 0) return text.match(WORD_RE)?.length ?? 0;
  const rest = text.replace(CJK_RE, " ");
  return (rest.match(WORD_RE)?.length ?? 0) + Math.ceil(cjk / 2);
}

const firstMatch = (re: RegExp, text: string) => {
  const m = re.exec(text);
  return m ? m[0].trim() : null;
};

/**
 * A cue that is the first word of a name ("Simplify Commerce", a payment gateway) is no cue: a Capitalised word
 * right after a Capitalised cue makes a name.
 */
function unlessName(body: string, cue: string | null): string | null {
  if (!cue) return cue;
  const at = body.toLowerCase().indexOf(cue.toLowerCase());
  const said = body.slice(at, at + cue.length);
  return /^\p{Lu}/u.test(said) && /^\s+\p{Lu}\p{Ll}/u.test(body.slice(at + cue.length)) ? null : cue;
}

/** A verb that takes something out, a few words before the shortcut it names ("remove the hard-coded …"). */
const TAKE_OUT_RE =
  /\b(?:remov\w*|replac\w*|get(?:ting)? rid of|eliminat\w*|avoid\w*|stop\w*|drop\w*|deprecat\w*|clean\w*(?: up)?|refactor\w*|dedup\w*|instead of|no (?:more|longer)|make configurable|configurable)\b[^.!?\n]{0,40}$/i;

/** Whether the text asks to take the shortcut out (it pays debt down) rather than to take it. */
function removesShortcut(text: string, shortcut: string): boolean {
  const at = text.toLowerCase().indexOf(shortcut.toLowerCase());
  return at >= 0 && TAKE_OUT_RE.test(text.slice(0, at));
}

/** What the title alone says: the structure's kind fields, before the description can change them. */
interface TitleReading extends Pick<
  TaskStructure,
  "kind" | "kindCue" | "severity" | "severityCue" | "debt" | "debtCue"
> {
  tag: boolean;
  words: number;
  body: string;
}

function readTitle(title: string): TitleReading {
  let rest = title.trim();
  let tagKind: TaskKind | null = null;
  let tag = false;
  for (let i = 0; i < 3; i++) {
    const m = TAG_RE.exec(rest);
    if (!m) break;
    tag = true;
    const label = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim();
    for (const [re, kind] of TAG_KINDS) if (!tagKind && re.test(label)) tagKind = kind;
    if (!tagKind && /bug|crash/i.test(label)) tagKind = "bug";
    if (!tagKind && /feat|request|idea/i.test(label)) tagKind = "feature";
    rest = rest.slice(m[0].length);
  }
  // Parentheses are asides ("(also helps billing)"): the subject is what stands outside them.
  const body = rest.replace(PARENS_RE, " ").replace(/\s+/g, " ").trim();
  const words = countWords(body);
  const out: TitleReading = {
    kind: "feature",
    kindCue: null,
    severity: null,
    severityCue: null,
    debt: null,
    debtCue: null,
    tag,
    words,
    body,
  };
  const ping = firstMatch(PING_RE, body);
  if (ping) return { ...out, kind: "ping", kindCue: ping };
  const support = firstMatch(SUPPORT_RE, body);
  if (support || tagKind === "question") return { ...out, kind: "question", kindCue: support };

  for (const [severity, re] of SEVERITY_RULES) {
    const cue = firstMatch(re, body);
    if (cue) {
      out.severity = severity;
      out.severityCue = cue;
      break;
    }
  }
  // "Remove the hard-coded timeout", "Replace the copy-pasted helpers": taking a shortcut out pays debt down.
  const shortcut = firstMatch(DEBT_ADD_RE, body);
  const takenOut = shortcut ? removesShortcut(body, shortcut) : false;
  const adds = takenOut ? null : shortcut;
  const removes = takenOut ? body : unlessName(body, firstMatch(DEBT_REMOVE_RE, body));
  if (adds) {
    out.debt = "adds";
    out.debtCue = adds;
  } else if (removes) {
    out.debt = "removes";
    out.debtCue = removes;
  }
  const featureVerb = firstMatch(FEATURE_VERB_RE, body);
  const docs = firstMatch(DOCS_RE, body);
  const chore = firstMatch(CHORE_RE, body);

  // A typo or wording problem in the docs is a docs task, however it is phrased.
  if (out.severity === "cosmetic" && docs) return { ...out, kind: "docs", kindCue: docs };
  if (tagKind && tagKind !== "feature") {
    const kind = tagKind === "bug" && !out.severity ? "bug" : tagKind;
    if (kind === "bug" && !out.severity) {
      out.severity = null;
    }
    return { ...out, kind, kindCue: out.severityCue ?? docs ?? chore ?? null };
  }
  // Severe defects are bugs whatever verb the title starts with ("Add a fix for the crash on …").
  if (isSevere(out.severity)) return { ...out, kind: "bug", kindCue: out.severityCue };
  if (out.debt) return { ...out, kind: "refactor", kindCue: out.debtCue };
  if (featureVerb || tagKind === "feature") {
    // "Add docs for …", "Update to 2.0": the verb asks for work, the object says which kind.
    if (docs && !out.severity) return { ...out, kind: "docs", kindCue: docs };
    return { ...out, kind: "feature", kindCue: featureVerb, severity: null, severityCue: null };
  }
  if (out.severity) return { ...out, kind: "bug", kindCue: out.severityCue };
  if (docs) return { ...out, kind: "docs", kindCue: docs };
  if (chore) return { ...out, kind: "chore", kindCue: chore };
  return out;
}

/** Stands for a code block removed from the text (a control character: no description holds it as such). */
const CODE_MARK = "\u0001";
/** Stands for a picture removed from a line (a space to everything else). */
const IMAGE_MARK = "\u0002";

interface BodyReading {
  ownWords: number;
  ownText: string;
  templateLines: number;
  /** See TaskStructure.promptShare. */
  promptShare: number;
  ownLines: number;
  steps: boolean;
  code: boolean;
  screenshot: boolean;
  links: number;
  outOfScope: boolean;
  acceptance: boolean;
  taskList: number;
}

function readBody(description: string): BodyReading {
  let text = description.length > 70_000 ? description.slice(0, 70_000) : description;
  let code = false;
  // The author's code and logs are the author's text too (for promptShare).
  let codeChars = 0;
  if (text.includes("<!--")) text = text.replace(HTML_COMMENT_RE, "\n");
  text = replaceFences(text, (block) => {
    code = true;
    codeChars += block.length;
    // A line of its own that stands for the block: it answers a heading above it ("## Logs").
    return `\n${CODE_MARK}\n`;
  });
  let screenshot = false;
  if (text.includes("![") || text.includes("<img")) {
    text = text.replace(IMAGE_RE, () => {
      screenshot = true;
      return IMAGE_MARK;
    });
  }
  let links = 0;
  // Link text is the linked page's words, not the author's claim: keep neither the text nor the address.
  if (text.includes("](")) {
    text = text.replace(LINK_TEXT_RE, () => {
      links++;
      return " ";
    });
  }
  if (text.includes("http") || text.includes("www.")) {
    text = text.replace(URL_RE, () => {
      links++;
      return " ";
    });
  }
  if (text.includes("@")) text = text.replace(EMAIL_RE, " ");

  let templateLines = 0;
  let ownLines = 0;
  let numbered = 0;
  let stepsHeading = false;
  let outOfScope = false;
  let inOutOfScope = false;
  let acceptance = false;
  let taskList = 0;
  const own: string[] = [];
  let openHeading = 0;
  // Characters of what is the template's and left unanswered, and of the author's own lines: "much of the
  // description is template text" is said by this share (a long paragraph is one line, but much text).
  let promptChars = 0;
  let ownChars = codeChars;
  const answer = () => {
    promptChars -= openHeading;
    openHeading = 0;
  };
  for (const rawLine of text.split("\n")) {
    const pictured = rawLine.includes(IMAGE_MARK);
    const line = (pictured ? rawLine.replaceAll(IMAGE_MARK, " ") : rawLine).trim();
    // A code block or a picture under a heading answers it ("### Proposed solution", then a screenshot).
    if (line === CODE_MARK || (pictured && line === "")) {
      answer();
      continue;
    }
    if (!line || !/[\p{L}\p{N}]/u.test(line)) {
      if (/^[-=*_]{3,}$/.test(line)) templateLines++;
      continue;
    }
    if (QUOTE_RE.test(line)) continue; // quoted text is someone else's words
    if (HEADING_RE.test(line)) {
      templateLines++;
      promptChars += line.length;
      openHeading = line.length;
      if (STEPS_HEAD_RE.test(line)) stepsHeading = true;
      if (ACCEPT_RE.test(line)) acceptance = true;
      inOutOfScope = OUT_OF_SCOPE_RE.test(line.replace(/^[#*_\s]+/, ""));
      if (inOutOfScope) outOfScope = true;
      continue;
    }
    if (OUT_OF_SCOPE_RE.test(line)) {
      // "Out of scope: payments, billing": the list names what the task is not.
      outOfScope = true;
      continue;
    }
    if (inOutOfScope && LIST_RE.test(line)) continue;
    let content = line;
    const label = LABEL_RE.exec(content);
    if (label) {
      templateLines++;
      promptChars += label[0].length;
      content = content.slice(label[0].length);
      if (!/[\p{L}\p{N}]/u.test(content)) continue;
    }
    if (CHECKBOX_RE.test(content)) {
      // A checklist of the template's own statements, ticked or not, is scaffolding; a task list the
      // author wrote is a plan. Both look alike, so only unticked items with prose count as the author's.
      const item = content.replace(CHECKBOX_RE, "").trim();
      if (!PROMPT_RE.test(item) && countWords(item) >= 2 && !/^i\b/i.test(item)) {
        taskList++;
        own.push(item);
        ownLines++;
        ownChars += item.length;
        answer();
      } else {
        templateLines++;
        // An unticked item of the author's own list ("- [ ] AWS") is the author's text all the same.
        if (!PROMPT_RE.test(item) && /^\W*\[ \]/.test(content)) ownChars += item.length;
        else promptChars += content.length;
      }
      continue;
    }
    if (PROMPT_RE.test(content) || PLACEHOLDER_RE.test(content)) {
      templateLines++;
      promptChars += content.length;
      continue;
    }
    if (NUMBERED_RE.test(content)) numbered++;
    if (STEPS_HEAD_RE.test(content)) stepsHeading = true;
    if (ACCEPT_RE.test(content)) acceptance = true;
    own.push(content);
    ownLines++;
    ownChars += content.length;
    answer();
  }
  const ownText = own.join("\n");
  return {
    ownWords: countWords(ownText),
    ownText,
    templateLines,
    promptShare: promptChars + ownChars === 0 ? 0 : Math.max(0, promptChars) / (promptChars + ownChars),
    ownLines,
    steps: numbered >= 2 && (stepsHeading || numbered >= 3),
    code,
    screenshot,
    links,
    outOfScope,
    acceptance: acceptance || taskList >= 2,
    taskList,
  };
}

/** What the analysis says of junk: advertising, and a note about the tracker itself (read-task.ts). */
export interface JunkFlags {
  spam: boolean;
  trackerNote: boolean;
}
const NO_FLAGS: JunkFlags = { spam: false, trackerNote: false };

/**
 * Read the task's structure. Pure and deterministic. The junk flags only overlay the reading (see withJunkFlags),
 * so the structure is read once and both the kind model (which reads it without them) and the judge use it.
 */
export function readStructure(
  title: string,
  description: string,
  flags: JunkFlags = NO_FLAGS,
): TaskStructure {
  return withJunkFlags(structureOf(title, description), flags);
}

/** Advertising or a tracker's note makes the task junk, whatever the title said. */
export function withJunkFlags(s: TaskStructure, flags: JunkFlags): TaskStructure {
  const junk: JunkReason | null = flags.spam ? "advertising" : flags.trackerNote ? "tracker_note" : null;
  if (!junk) return s;
  return {
    ...s,
    kind: "junk",
    kindCue: null,
    severity: null,
    severityCue: null,
    debt: null,
    debtCue: null,
    junk,
  };
}

function structureOf(title: string, description: string): TaskStructure {
  const t = readTitle(title);
  const b = readBody(description);
  const versions = VERSION_RE.test(b.ownText) || /\b\d+\.\d+\.\d+\b/.test(description);
  const hype = b.ownText.match(HYPE_RE)?.length ?? 0;
  // A shortcut stated in the first lines of the description ("paste the helper into each package
  // instead of importing it") adds debt as surely as one in the title.
  const opening = b.ownText.slice(0, 300);
  const shortcut = t.kind !== "bug" && !t.debt ? firstMatch(DEBT_ADD_RE, opening) : null;
  const descDebt = shortcut && !removesShortcut(opening, shortcut) ? shortcut : null;
  if (descDebt) {
    t.kind = "refactor";
    t.debt = "adds";
    t.debtCue = descDebt;
  }
  const titleWithoutTag = t.body;

  // Code, output or a picture pasted under the headings is the author's own, however few the words.
  const unfilled =
    !b.code &&
    !b.screenshot &&
    ((b.templateLines >= 3 && b.ownWords < 10) ||
      (b.templateLines >= 5 && b.ownWords < 40 && b.templateLines >= 2 * b.ownLines));
  let junk: JunkReason | null = null;
  const letters = /[\p{L}]/u.test(titleWithoutTag);
  if (ACCIDENT_RE.test(title) || (b.ownWords <= 30 && ACCIDENT_RE.test(b.ownText))) junk = "accident_or_test";
  else if (!letters || /^(?:https?:\/\/|www\.)\S*$/i.test(titleWithoutTag))
    junk = t.tag && b.ownWords >= 15 ? null : "no_title";
  else if (PLACEHOLDER_TITLE_RE.test(titleWithoutTag)) junk = "placeholder_title";
  // An unfilled template under a title that says what the work is stays a (thin) task; under a title of a
  // word or two there is nothing to act on.
  else if (unfilled && t.words <= 3) junk = "unfilled_template";
  else if (
    t.words <= 1 &&
    !CJK_TEST.test(titleWithoutTag) &&
    // A one-word title over a template's scaffolding says no more than one over nothing.
    (b.ownWords < 15 || (!t.tag && (b.ownWords < 40 || b.templateLines >= 5)))
  )
    junk = "one_word_title";
  else if (t.words <= 2 && b.ownWords <= 5 && b.links === 0 && !t.tag) junk = "no_content";
  // A title of a few words and nothing else ("make it better", "it doesnt work"): nothing to act on yet.
  else if (t.words <= 4 && b.ownWords === 0 && b.links === 0 && !b.code && !b.screenshot) junk = "no_content";

  let kind = t.kind;
  // A status ping can sit in a one-line description under an ordinary title ("Update the plugin").
  if (!junk && b.ownWords <= 15 && PING_RE.test(b.ownText.trim())) kind = "ping";
  if (junk) kind = "junk";
  return {
    kind,
    kindCue: junk ? null : t.kindCue,
    severity: kind === "bug" || kind === "docs" ? t.severity : null,
    severityCue: kind === "bug" || kind === "docs" ? t.severityCue : null,
    debt: kind === "refactor" ? t.debt : null,
    debtCue: kind === "refactor" ? t.debtCue : null,
    bulk: BULK_RE.test(title) || BULK_RE.test(b.ownText),
    junk,
    titleTag: t.tag,
    titleVersion: VERSION_RE.test(t.body),
    titleQuestion: /[?？]\s*$/.test(title.trim()),
    titleChars: [...t.body].length,
    titleImperative: IMPERATIVE_RE.test(t.body),
    userRequest: REQUEST_RE.test(title) || REQUEST_RE.test(b.ownText.slice(0, 400)),
    questions: b.ownText.match(/[?？]/g)?.length ?? 0,
    titleWords: t.words,
    ownWords: b.ownWords,
    templateShare: b.templateLines + b.ownLines === 0 ? 0 : b.templateLines / (b.templateLines + b.ownLines),
    promptShare: b.promptShare,
    templateLines: b.templateLines,
    steps: b.steps,
    code: b.code,
    versions,
    demand: DEMAND_RE.test(b.ownText),
    acceptance: b.acceptance,
    expected: EXPECTED_RE.test(b.ownText),
    screenshot: b.screenshot,
    links: b.links,
    hype,
    outOfScope: b.outOfScope,
  };
}
