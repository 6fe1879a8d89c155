/**
 * The structural reader's patterns (read-structure.ts): title tags, severity, debt, docs and chores, requests,
 * headings, labels, template prompts, placeholders, steps, acceptance, demand. Every one is linear: anchored
 * alternations of literal words, no nested unbounded repeats.
 */
import type { Severity, TaskKind } from "./task-structure.js";

export const TAG_RE =
  /^\s*(?:\[([^\]]{1,40})\]\s*[-:–]?\s*|\(([^)]{1,30})\)\s*[-:]?\s*|(feat|feature|fix|bug|chore|docs|refactor|perf|test|build|ci|style|rfc|fr|feature request|bug report|enhancement|proposal|idea|request|question)(?:\([^)]{0,30}\))?!?\s*[:-]\s*|\*+\s*(feature request|bug)\s*\*+\s*)/i;
export const PARENS_RE = /\([^)]{0,80}\)/g;

export const TAG_KINDS: [RegExp, TaskKind][] = [
  [/^(bug|fix|bug report|crash|regression|defect|error)$/i, "bug"],
  [/^(docs?|documentation)$/i, "docs"],
  [/^(chore|build|ci|deps|dependencies|release)$/i, "chore"],
  [/^(refactor|perf|cleanup|tech debt)$/i, "refactor"],
  [/^(question|help|support|q)$/i, "question"],
  [/^(feat|feature|fr|feature request|enhancement|proposal|idea|request|rfc|feat request)$/i, "feature"],
];

/** Each rule: a kind (and severity) and the title words that show it. First match wins, in this order. */
// "Bump" alone (or "bump this") is a ping; "Bump axios from 1.6.0 to 1.6.8" is a dependency update.
export const PING_RE =
  /^\W*(?:any (?:update|news|progress)s?|\+1|bump(?=\s*[!.?]*\s*$|\s+(?:this|thread|issue|pls|please)\b)|still (?:nothing|broken|waiting|no)|is this (?:project )?(?:dead|abandoned)|eta\??|status\??|why (?:haven.?t|hasn.?t|isn.?t) (?:you|this|it|there)|when (?:will|is) (?:this|it|the next))\b/i;
export const SUPPORT_RE =
  /^(?:how (?:do|can|should|would|to) (?:i|we|you)?\b|how to\b|why (?:does|is|do|did|are|was|isn'?t|doesn'?t|my)\b|what (?:is|does|are)\b|where (?:is|are|do|can)\b|can (?:i|you|someone) (?:help|explain|tell)\b|question\b|help\b|help needed\b|can (?:you|someone) (?:give|tell|explain|show)\b)|^(?:如何|怎么|怎样|请问)|^как\s/i;
export const SEVERITY_RULES: [Severity, RegExp][] = [
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
export const DEBT_ADD_RE =
  /\b(?:hard-?cod\w*|copy[- ]?(?:and[- ])?past(?:e|ed|ing)?[- ](?:the |this |a |that )?(?:same )?(?:\w+ )?(?:code|logic|functions?|helpers?|modules?|files?|snippets?|blocks?|implementations?|methods?|classes|components?)\b|past\w* (?:the |this |a |that )?(?:same )?(?:\w+ )?(?:function|code|logic|helper)\w*|cop(?:y|ies|ying) (?:the |this |a |that )?(?:\w+ )?(?:helper|function|code|logic|module|file)s? (?:in)?to (?:each|every|all)|duplicat\w* (?:the |this )?(?:code|logic|function)|disabl\w* (?:the )?(?:tests?|lint\w*|checks?|ci)|skip (?:the )?tests|quick hack|temporary hack|monkey-?patch\w*|vendor(?:ing)? (?:a )?copy)\b/i;
export const DEBT_REMOVE_RE =
  /\b(?:refactor\w*|clean ?up|extract\w* (?:the |a |an |this |that |these |common |shared |duplicated? )?(?:\w+ )?(?:methods?|functions?|helpers?|class(?:es)?|modules?|components?|logic|code|interfaces?|hooks?|utils?|utilities)\b|deduplicat\w*|de-?duplicat\w*|simplif\w*|rewrit\w*|restructur\w*|technical debt|tech debt|remov\w* (?:dead|unused|duplicat\w*|deprecated|legacy)|drop\w* (?:dead|unused|deprecated|legacy)|decoupl\w*|consolidat\w*|modulari[sz]\w*|type ?safety|migrat\w* (?:\w+ )?(?:tests?|code|codebase) to)\b/i;
// "Document" only as the title's first word, the verb ("Document the retry policy"); as a noun it is what a
// feature works on ("Export the document to PDF").
export const DOCS_RE =
  /^document\b|\b(?:docs?|documentation|documented|readme|changelog|wiki|tutorial|guide|manual|examples?|example ?site|typo in (?:the )?(?:docs?|readme))\b/i;
export const CHORE_RE =
  /\b(?:bump\w*|upgrad\w*|update (?:to|deps|dependencies|[\w.-]+ to)|dependenc\w*|release|ci|github actions|travis|deprecat\w*|drop (?:support|python|node|php)|rebuild|lint\w*|helm|docker ?image|image bump|migrat\w* (?:from|ci|to)|telemetry|v?\d+(?:\.\d+)+ (?:is|are) out|new version)\b/i;
export const IMPERATIVE_RE =
  /^(?:add|update|remove|fix|support|allow|use|make|implement|migrate|drop|bump|upgrade|create|enable|disable|move|rename|replace|improve|refactor|document|release|expose|extract|split|merge|convert|switch|handle|show|hide|set|change|introduce|deprecate|delete|clean|publish|port|integrate|provide)\b/i;
export const REQUEST_RE =
  /\b(?:please|pls|plz|feature request|request(?:ing|ed)?|wish(?:list)?|would (?:be|love)|would like|i'?d (?:like|love)|i (?:want|need|hope)|hope to|could you|can you|suggest(?:ion)?|plans? (?:for|to)|any plans?|possible to)\b/i;
export const FEATURE_VERB_RE =
  /^(?:please )?(?:add\w*|support\w*|allow\w*|enable|implement\w*|provide|introduce|create|make|offer|integrat\w*|expose|let|option|ability|new|request)\b/i;
export const BULK_RE =
  /\b(?:(?:generat\w*|creat\w*|produc\w*|publish\w*) (?:\d[\d,]*|hundreds|thousands|bulk|mass|many|lots of) (?:of )?(?:\w+ )?(?:pages|posts|articles|listings|blogs?|landing pages|seo pages|products)|bulk[- ](?:generat\w*|creat\w*) (?:of )?(?:pages|content|articles|posts)|(?:auto|ai)[- ]?generat\w* (?:seo |blog |landing )?(?:pages|content|articles|posts|listings)|mass[- ]produc\w*|programmatic seo|content farm)\b/i;
export const VERSION_RE = /\b(?:v?\d+\.\d+(?:\.\d+)*|v\d+|(?:[A-Z][\w-]*|[Vv]ersion|[Rr]elease) \d{1,4})\b/;
export const PLACEHOLDER_TITLE_RE =
  /\b(?:(?:insert|enter|add) [^.?!]{0,40}\bhere\b|(?:title|name|summary) (?:here|goes here)|your (?:title|feature|issue) here|proposal name|short description|a clear and concise|\[?title\]?$)/i;
// A test post says so ("this is a test", "just a test", a text that is only "a test"); "added a guard and a
// test" is a pull request with a unit test.
export const ACCIDENT_RE =
  /\b(?:by (?:accident|mistake)|please (?:delete|ignore|close) (?:this|it|me)|delete this|ignore this|(?:^|\b(?:just|only) )a test(?: issue| post)?\b(?! (?:for|of|case|suite|that|which|to))|test issue|testing issue|this is a test|wrong repo\w*|opened (?:by )?accident\w*)/i;
// "must have" only as the adjective ("a must-have", "a must have"): "scale must have the same number of elements"
// is an error message's rule, not a claim of value.
/**
 * A measured number: a time, a size, a share or a factor ("3000 seconds", "2.4 s", "10x", "32%", "512 MB"); not a decade
 * ("the 1990s"). Read with the hype words taken out, so that "a 10x improvement" is no measure of itself.
 */
export const MEASURED_RE =
  /\b\d+(?:[.,]\d+)?\s*(?:%|x\b|×|ms\b|sec(?:ond)?s?\b|min(?:ute)?s?\b|h(?:ours?)?\b|[kmgt]i?b\b|times\b|fps\b)|\b\d+(?:[.,]\d+)?\s+s\b|\b\d+[.,]\d+s\b/i;
export const HYPE_RE =
  /\b(?:game[- ]?changer|revolutionar\w*|10x|100x|huge (?:impact|win|value)|high[- ]impact|revenue[- ]critical|mission[- ]critical|must-have|a must have|killer feature|massive(?:ly)?|skyrocket\w*|best[- ]in[- ]class|world[- ]class|disrupt\w*|next[- ]level|unlock\w* (?:huge|massive|enormous)|everyone (?:wants|needs)|all users (?:want|need))\b/gi;

// ---------------------------------------------------------------------------------------------------
// Description

export const LINK_TEXT_RE = /\[([^\]\n]{0,300})\]\([^)\n[]{0,500}\)/g;
export const EMAIL_RE = /\S+@\S+\.\w+/g;
// A "Label:" line is a heading only when short (five words at most): "The log now shows the following:"
// introduces the author's own evidence.
export const HEADING_RE =
  /^\s*(?:#{1,6}\s|\*\*[^*\n]{1,150}\*\*\s*:?\s*$|__[^_\n]{1,150}__\s*:?\s*$|[-=*_]{3,}\s*$|[A-Z][^\s.!?:]*(?:[ \t]+[^\s.!?:]+){0,4}:\s*$)/;
/** A bold or underlined label at the start of a line ("**Feature Name:** …"): the rest is judged on its own. */
export const CHECKBOX_RE = /^\s*[-*+]\s+\[[ xX]?\]/;
export const LIST_RE = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/;
export const NUMBERED_RE = /^\s*\d{1,3}[.)]\s+\S/;
/**
 * Template prompts: text addressed to the reporter, which an unfilled template leaves in place. These
 * are the shapes of GitHub's and most projects' templates (second-person instructions, "[...]"
 * placeholders, "_No response_"), not the text of any one project's template. "Provide a …", "Include …" and
 * "List …" are a template's only where they ask the reporter for something ("Provide a minimal code example",
 * "Include any log output"); "Provide a ServiceMonitor definition for prometheus-operator users" is a request.
 */
export const PROMPT_RE =
  /^\W*(?:a clear and concise|a (?:short|brief|detailed) description|describe\b|please (?:describe|provide|include|add (?:any|a|an|the) |explain|list|link|fill|search|check|note|make sure|use|read|attach|give|tell|share)|add any|if applicable|(?:provide (?:a|an|any|the)|include (?:a|an|any|the)|list (?:any|the|all))\b(?=.{0,120}\b(?:descri\w*|context|details?|information|info|screenshots?|steps|examples?|links?|versions?|logs?|output|code|snippets?|reproduc\w*|you|your|issue|problem|bug|feature|requests?|behaviou?r|alternatives?|changes?|tests?|motivation|use ?cases?|summary)\b)|explain\b|tell us|ex\.|e\.g\.|steps to reproduce the behaviou?r|what(?:'s| (?:is|are|would|should|did|do)) (?:the|your|you|other)\b|if you\b|(?:.{0,200}\b)?here[.!:]?\s*$|why (?:is|are|would|should) (?:this|it)\b|how (?:would|should|can|could) (?:this|it|we|you)\b|is your (?:feature request|problem|request)|one paragraph|fill (?:me|in|this|out)|insert\b|\(?note\b(?!\s+that\b)|\(?optional\b|n\/a\s*$|none\.?\s*$|no response|_no response_|i (?:have )?(?:searched|checked|read|agree|confirm|made sure|understand|am (?:aware|using the latest))|thanks?!?\s*$|thank you\.?\s*$)/i;
export const PLACEHOLDER_RE =
  /\[(?:\.\.\.|…)\]|\(fill [^)]{0,60}\)|\[[a-z ]{3,30} here\]|<[a-z ]{3,30} here>|\byyyy-mm-dd\b|^\W*(?:add|insert|put|write|enter|paste|type|describe)\b[^.!?\n]{0,40}\b(?:description|details?|issue|text|info(?:rmation)?|summary|title|name|steps|logs?|output|screenshots?|context|version)\s+here\W*$/i;
export const STEPS_HEAD_RE =
  /\b(?:steps to reproduce|to reproduce|reproduction steps|how to reproduce|repro steps|reproduce|steps|pasos|étapes|schritte)\b|步骤|复现|重现|再現|手順|шаги|воспроизвед/i;
export const ACCEPT_RE =
  /验收|期望|预期|受け入れ|критерии|\b(?:acceptance criteria|definition of done|done when|expected (?:behaviou?r|result|outcome|output)|should (?:be able to|return|show|display|allow|include|support|work|not)|must (?:be able to|return|show|allow|support|not)|success criteria|requirements?:)/i;
export const EXPECTED_RE =
  /\b(?:expected|actual (?:behaviou?r|result)|should (?:be|have|show|return)|esperado|attendu|erwartet)\b|期望|预期|期待|ожида/i;
export const OUT_OF_SCOPE_RE = /^\W*(?:out of scope|non-goals?|not in scope|won'?t do)\b/i;

/** One tag before a title's words: "[JDK 11] ", "[Bug]: ", "build: ", "feat(ui)!: " (a source, for the patterns that read past them). */
export const TITLE_TAG = String.raw`(?:\[[^\]]{0,40}\]\s*[-:]?\s*|\w+(?:\([^)]{0,30}\))?!?:\s*)`;

/**
 * A title that opens on upkeep: moving, renaming, removing or replacing code, a clean-up, an upgrade, a backport, a
 * revert, a typo or javadoc fix ("Remove GzipOutputStream", "Move all DistCp execution logic to execute()", "Fix
 * typo in JMXJsonServlet.java"). Such a task is neither a bug report nor a feature request, so no kind is named for
 * it: on Apache Hadoop's Jira, labelled by readers (scripts/eval/kind-claim-tracker.ts), the kind model named 14
 * such tasks "feature" or "bug" among 46 claims. Tags ("[JDK 11] ", "build: ") are read past.
 */
export const UPKEEP_TITLE_RE = new RegExp(
  String.raw`^\W*${TITLE_TAG}*(?:remove|delete|drop|move|rename|refactor|clean(?:\s?up)?|cleanup|migrate|replace|upgrade|bump|deprecate|backport|cherry-?pick|revert|exclude|use|create (?:a |an |the |new )?(?:[\w-]+ )?(?:module|jar|package|artifact)|fix (?:the |a |some |all )?(?:[\w"']+ )?(?:typos?|javadocs?|checkstyle|findbugs|spotbugs|lint|warnings?|doc(?:s|umentation)?)\b|(?:fix|correct) [^.]{0,40}\btypos?)\b`,
  "i",
);
/**
 * Work on the project itself rather than on what it does for its users: its tests ("Add more test for the gzip
 * compressor", "support multiple integration test runs on one bucket"), its build and CI ("Add precommit check for
 * the thirdparty repository", "Update the Dockerfile", "Add .diff to .gitignore", "Publish SBOM artifacts"), its
 * javadoc, changelog and licence headers. Readers do not call it an enhancement request. A failing test or a broken
 * build is still a bug report, so only "feature" goes unnamed for it (kindNamed).
 */
export const PROJECT_WORK_RE =
  /\b(?:(?:unit|integration|flaky|more|missing|new|extra) tests?|tests? (?:for|coverage|cases?|runs?|suites?))\b|(?:^|[\s`'"(])\.(?:gitignore|gitattributes|asf\.yaml|editorconfig|github)\b|\b(?:dockerfile|jenkinsfile|makefile|pom\.xml|build\.gradle|pre-?commit|checkstyle|spotbugs|findbugs|javadocs?|copyright|license headers?|release notes|changelog|sbom)\b|\b(?:ci|build) (?:jobs?|pipelines?|scripts?|profiles?|images?)\b|\bjdk\s?\d+ profile\b/i;
/** A test class's name, case-sensitive ("TestRPC", "TestDynamometerInfra"), not "testInstance" nor "testnet". */
export const TEST_CLASS_RE = /\bTest[A-Z][A-Za-z]\w*/;
/**
 * A name joined by "." or "_": a package's, a file's, an identifier's, a version's ("org.apache.hadoop.security.Ugi",
 * "bitcoin.conf", "p2p_permissions"). Its words are not the author's words about a subject. Global: for replace only.
 */
export const DOTTED_NAME_RE = /[\p{L}\p{N}]+(?:[_.][\p{L}\p{N}]+)+/gu;
