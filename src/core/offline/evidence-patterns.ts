/**
 * The evidence finder's patterns (read-evidence.ts): demand, acceptance, steps, traces and error output, versions,
 * expected versus actual, pictures, code and logs. Each pattern is linear: bounded repeats, anchored alternations,
 * and where a pattern is costly, a gate of the words it cannot match without, tested first with the same flags.
 */
/**
 * A count is digits, with thousands' commas ("1,200 users") and a decimal only before k or m ("1.5k downloads"):
 * "Ubuntu 18.04 installs gpg 2.2" holds a version, not 18.04 installs (a fresh reading's contradiction).
 */
/** Numbers written as words, as people write counts of people ("twelve customers", "about forty integrators"). */
const NUMBER_WORD =
  "(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundreds|a thousand|thousands|millions|a dozen|dozens|several hundred|several thousand)";
/**
 * Who a count of demand counts: people, and what people do to show it (installs, votes, tickets). Not machines:
 * "2 out of 4 NS servers went down", "storage accounts with and without a namespace", "the two clients" (HTTP
 * clients) and "a few hundred times a day" (a log line) are no one asking, and on Apache Hadoop's Jira every one of
 * the ten demand quotes was of that sort. A client is a person's only as "our clients", "my clients". Plural only:
 * "only 1 user" counts no demand, and "3 user_name" (a file listing) no one.
 */
const WHO =
  "(?:users|customers|clients(?<=\\b(?:our|my|their)\\s+(?:[\\p{L}-]{1,40}\\s+)?clients)|integrators|developers|teams|companies|organi[sz]ations|orgs|people|members|subscribers|partners|buyers|merchants|admins|maintainers|contributors|sites|stores|shops|installs|installations|downloads|votes|upvotes|reactions|thumbs[- ]up|👍|tickets|support tickets|complaints|stars|seats)(?![\\p{L}\\d_])";
/**
 * Requests count as demand when they are people's ("200 feature requests", "dozens of requests for this"), and
 * sessions except per unit of time: "10k requests per minute" and "thousands of concurrent socket requests" are
 * load on a server, not people asking (a fresh maintainer's reading).
 */
const RATE_AFTER =
  "(?!\\s*(?:per|a|an|each|every|/)\\s*(?:s|sec|second|min|minute|h|hr|hour|day|week|month)\\b)";
/**
 * Words that end the phrase a count belongs to: in "two projects as different users" the count is of projects.
 * "Three of our largest customers" keeps its count (of, our).
 */
const LINKING = "(?:as|in|on|for|to|with|by|from|per|and|or|at|into|than|but|that|which|when|if)";
/**
 * Nouns that the audience's word only qualifies: "two of the client tests", "five server logs" count tests and logs,
 * not people (a fresh reading's contradiction). A count "per" something is a ratio, not people asking ("5 members per
 * population", an algorithm's setting).
 */
const QUALIFIED =
  "(?:tests?|code|sides?|librar(?:y|ies)|sdks?|apis?|certificates?|ids?|names?|data|interfaces?|config\\w*|settings?|modes?|class(?:es)?|objects?|modules?|packages?|jars?|threads?|connections?|calls?|errors?|sockets?|ports?|process(?:es)?|nodes?|versions?|builds?|logs?|scripts?|files?|tables?|roles?|keys?|tokens?|credentials?|agents?|machines?|protocols?|implementations?|tools?|commands?|caches?|director(?:y|ies)|folders?|paths?|pages?|quotas?|limits?|permissions?|profiles?|fields?|types?|options?|jobs?|tasks?|containers?|images?)";
const DEMAND_RE = new RegExp(
  `(?:(?<![\\d.,/_-])\\b\\d[\\d,]{0,20}(?:\\.\\d{1,3}\\s*(?:k|m)(?![\\p{L}]))?\\s*(?:k|m)?\\+?|\\b${NUMBER_WORD}|\\b\\d+\\s*%|\\b\\d+\\s*percent)(?:\\s+(?!${LINKING}(?![\\p{L}]))[\\p{L}-]+){0,3}?\\s+(?:(?:(?:feature|support|user|customer|client)[\\s-]+)?requests(?=\\s+(?:for|from|asking)\\b)|(?:feature|support|user|customer|client)[\\s-]+requests(?![\\p{L}])${RATE_AFTER}|sessions(?![\\p{L}])${RATE_AFTER}|${WHO}(?!\\s+${QUALIFIED}(?![\\p{L}]))(?!\\s+per\\b))(?![\\p{L}])`,
  "iu",
);
/**
 * Words without which DEMAND_RE cannot match (the start of each of its nouns), tested first: most lines name no
 * one, and this costs a fraction of the whole pattern. Same flags, so the same letters match.
 */
const DEMAND_GATE_RE =
  /user|customer|client|integrator|developer|team|compan|organi|orgs|people|member|subscriber|partner|buyer|merchant|admin|maintainer|contributor|site|store|shop|install|download|vote|reaction|thumbs|👍|ticket|complaint|star|seat|request|session/iu;
/**
 * A count of people asking (DEMAND_RE, its gate tested first), or null: the one definition of demand that the
 * evidence quotes, the structure's flag and the ask's ranker read.
 */
export function demandIn(text: string): RegExpExecArray | null {
  return DEMAND_GATE_RE.test(text) ? DEMAND_RE.exec(text) : null;
}
/**
 * A label that introduces acceptance criteria; not a word inside an identifier ("requirement_set = …" in a trace).
 * "Requirements" only as a label of its own ("Requirements:"): pip's "Requirement already satisfied: …" is output.
 */
export const ACCEPT_LABEL_RE =
  /^[^\p{L}\n]*(?:acceptance(?: criteria| tests?)?|a\.?c\.?(?=\s*[:：])|done when|definition of done|success looks like|(?:impact (?:&|and) )?success (?:criteria|metrics?)|success means|requirements?(?=\s*(?:[:：]|$)|\s+(?:for|of|to)\b)|needs?(?=\s*[:：])|must[- ]haves?(?: \([^)]{0,30}\))?|expected outcome|how can this(?: issue)? be resolved\??|we(?:'ll| will) know (?:it(?:'s| is) done|this is done) when|it(?:'s| is) done when|criterios de aceptación|critères d'acceptation|akzeptanzkriterien|验收(?:标准|方式|条件)?|受け入れ条件|критерии приёмки)(?![\p{L}\p{N}_])[^\n:：]{0,20}[:：?？]?\s*(.*)$/iu;
/** Checklist items that are the template's own statements, not the author's plan ("I agree…", "There is…"). */
export const TEMPLATE_ITEM_RE =
  /^(?:i(?:'m| am| have|'ve)?\b|please\b|there (?:is|are)\b|to the best\b|the (?:pr|feature|issue|patch)\b|this (?:is|issue|pr)\b|my\b)/i;
export const LIST_ITEM_RE = /^\s*(?:[-*+•]|\d{1,2}[.)]|\[[ xX]\])\s+\S/;
export const TASK_ITEM_RE = /^\s*[-*+]\s+\[[ xX]\]\s+(\S.*)$/;
export const STEP_ITEM_RE = /^\s*(?:\d{1,2}\s*[.):-]|step \d+[:.]|[-*+•])\s+(\S.*)$/i;
const STEPS_LABELS =
  "steps to reproduce|to reproduce|reproduction steps|how to reproduce|repro(?:duction)? steps|verification steps|steps|pasos para reproducir|pasos|étapes pour reproduire|étapes|schritte zur reproduktion|schritte|复现步骤|重现步骤|再現手順|шаги воспроизведения|шаги";
export const STEPS_HEAD_RE = new RegExp(`^[^\\p{L}\\n]*(?:${STEPS_LABELS})(?![\\p{L}])`, "iu");
/** Steps written on one line after their label: "Steps: 1. Open the report 2. Export it". */
export const STEPS_INLINE_RE = new RegExp(
  `(?:^|[^\\p{L}])(?:${STEPS_LABELS})\\s*[:：]\\s*(1\\s*[.)]\\s*\\S.{0,200}?\\s2\\s*[.)]\\s*[\\p{L}\\p{N}][^\\n.!?。]{0,120}[.!?。]?)`,
  "iu",
);
/** Verbs that open a step of a procedure. */
const ACTION =
  "open|click|press|type|run|go to|navigate|select|choose|enter|create|add|install|start|launch|call|set|load|save|drag|scroll|tap|hover|copy|paste|import|execute|build|use";
/** Two actions or more in one sentence: a verb, then another after "then", "and", a comma or an arrow. */
export const PROSE_STEPS_RE = new RegExp(
  `^[^\\n]{0,60}?\\b(?:${ACTION})\\b[^\\n]{2,120}?(?:,\\s*(?:and\\s+)?(?:then\\s+)?|\\s+(?:and\\s+)?then\\s+|\\s+and\\s+|\\s*(?:->|→|>)\\s*)(?:${ACTION}|see|observe|notice|wait)\\b`,
  "i",
);
export const TRACE_RE =
  /Traceback \(most recent call last\)|^\s*at [\w$.<>[\]/:-]+\s*\(|^\s*at [\w$.]+\.[\w$<>]+\(|^\s*at \S+:\d+:\d+\)?\s*$|Exception in thread|\b[A-Z]\w*(?:Error|Exception)\b(?::|\((?!\)))|^\s*File "[^"]+", line \d+|^panic: |thread '[^']*' panicked at|^goroutine \d+ \[|\bSIGSEGV\b|Segmentation fault|^\s*#\d+\s+0x[0-9a-f]+|^\s*(?:[\w.+-]+:\s*)?(?:[Ff]atal )?(?:[Ee]rror|ERROR)(?:\[\w+\]| [A-Z]+\d+)?\s*:|^\s*\[\s*(?:[Ee]rror|ERROR)\b|^\s*\d+:\d+\s+error\s|\bruntime error:|Assertion [`'"].*[`'"] failed|\bC\+\+ exception\b|"error"\s*:\s*\{|(?<![\w\\/.-])[\w\\/.-]{1,300}(?:\(\d+(?:,\d+)?\)|:\d+(?::\d+)?):\s*(?:fatal )?error\b/m;
/**
 * Words without which TRACE_RE cannot match, tested first (the same case and the same line starts): most lines
 * are neither traces nor errors, and the whole pattern's path-and-line alternative costs far more.
 */
export const TRACE_GATE_RE =
  /^\s*at |Traceback|Exception|File "|panic|goroutine |SIGSEGV|Segmentation fault|0x|rror|ERROR|Assertion|exception/m;
export const isTrace = (line: string) => TRACE_GATE_RE.test(line) && TRACE_RE.test(line);
/**
 * Error output quoted in prose: a sentence that announces an error and then quotes it, on the same line
 * ('I get this error: "Transaction needs a change address…"') or on the next ("… will encounter an error:").
 */
export const ERROR_QUOTED_RE =
  /\b(?:get|gets|got|getting|see|saw|seeing|throws?|threw|raises?|raised|shows?|showed|showing|returns?|returned|receive[sd]?|encounter(?:ed)?|fails? with|failed with)\b[^\n"“]{0,30}\b(?:errors?|exceptions?)(?: messages?)?\b[^\n"“]{0,40}["“][^"”\n]{12,}["”]/i;
export const ERROR_INTRO_RE =
  /\b(?:following|this|the|an|these|same|get|gets|got|getting|throws?|threw|shows?|returns?|gives?|see|saw|encounter(?:ed)?|received?)\b[^\n.]{0,20}\b(?:errors?|exceptions?)(?: messages?)?[^\n.`]{0,40}?[:：]\s*$/i;
/** The line under such an announcement reads as output (a colon, quotes, code marks or an error's words), not prose. */
export const OUTPUT_LINE_RE =
  /^[`"“_*>]|\b(?:error|exception|fail\w*|invalid|cannot|can't|unable|not found|denied|refused|undefined|null)\b/i;
/**
 * A version; not a clock's time ("Screenshot 2022-09-08 at 9.22.07 AM.png"), nor a "v1.1" that ends a name or a path
 * ("okokes-test-v1.1", "/oauth2/v2.0/token": a bucket's name and an endpoint, which readers took as "Versions:" for
 * false), nor a folder's name in a path (".cargo/registry/src/…/hyper-0.14.26/src/server.rs": a dependency's, in a
 * panic's location; "/Satoshi:22.0.0/", a user agent, is still a version), nor an address's part ("192.168.1.x").
 */
export const VERSION_RE =
  /\b(?<!\d\.)(?<![\w$]\.)(?:(?<![-/])v\d+(?:\.\d+)+|(?<![-/])\d+\.\d+\.\d+(?:[-+][\w.]+)?(?!\.[xX*])|(?<=[-/])\d+\.\d+\.\d+(?:[-+][\w.]+)?(?![\w.+-]{0,100}\/)|(?:versions?|release)\s*:?\s*v?\d+(?:\.\d+)*|(?:Node(?:\.js)?|Python|Java|JDK|Go|Rust|rustc|Ruby|PHP|Perl|Chrome|Chromium|Firefox|Safari|Edge|iOS|iPadOS|Android|Windows|Win|macOS|Ubuntu|Debian|Fedora|CentOS|Alpine|React|Vue|Angular|Next\.js|Nextjs|Django|Rails|Spring|PostgreSQL|Postgres|MySQL|MariaDB|Redis|Kubernetes|Docker|VS ?Code|Xcode|Electron|TypeScript|npm|pnpm|yarn|gcc|clang|OpenCV|TensorFlow|tf|CUDA|Bitcoin Core)(?:[ :]v?|v)\d+(?:\.\d+)*\+?)(?!\w|\.\d)(?!\s*[ap]\.?m\b)/i;
/**
 * (VERSION_RE: a name after "word." is a file's extension or a package's part, "NativeIO.java:382" a stack frame's
 * line, not Java 382: fresh Hadoop readings took two such "Versions" for false.)
 */
/** A heading or label that asks for a version ("### TensorFlow version"): the line under it holds one. */
export const VERSION_FIELD_RE = /\bversion\b[^\n]{0,40}$/i;
export const BARE_VERSION_RE = /^[^\p{L}\d\n]*(?:[\p{L}-]+\s*)?v?\d+(?:\.\d+)+/u;
/** Template examples ("(e.g., Linux Ubuntu 16.04)") are the template's words, not the author's. */
export const EXAMPLE_RE = /\((?:e\.g\.|ex\.|for example)[^)\n]{0,300}\)|\[e\.g\.[^\]\n]{0,300}\]/gi;
/**
 * The expected side: a label ("Expected behavior", "What is the expected behavior?") or "should … but/instead";
 * inline, the label may open any sentence of the line ("… see USD prices. Expected: EUR prices.").
 */
export const EXPECTED_LABEL_RE =
  /^[^\p{L}\n]*(?:(?:what is )?the )?(?:expected|desired)(?: behaviou?r| result| output| outcome)?\b[^\n]{0,30}$|^[^\p{L}\n]*(?:what (?:i )?expected|should be|comportamiento esperado|comportement attendu|erwartetes verhalten|期望行为|预期结果|期待される動作|ожидаемое поведение)\s*[:：?]?\s*$/iu;
/** Words without which EXPECTED_INLINE_RE cannot match, tested first (same flags). */
export const EXPECTED_INLINE_GATE_RE = /expect|should|instead|must provide/iu;
export const EXPECTED_INLINE_RE =
  /(?:^|(?<=[.!?]\s+))[^\p{L}\n]{0,20}(?:expected(?: behaviou?r| result| output)?|should be)\s*[:：]\s*\S|\b(?:but|and) instead\b|\bshould\b[^.\n]{1,80}\bbut\b[^.\n]{0,20}\b(?:not|n't|no|wrong|fails?|shows?|returns?|gives?|gets?)\b|\b(?:got|get|getting|returns?|shows?)\b[^.\n]{1,60}\binstead of (?:the )?expected\b|(?<!as )\bexpected\b[^.\n]{1,40}\b(?:but|instead)\b|\binstead of the expected\b|\bmust provide\b[^.\n]{1,80}\bbut\b/iu;
/**
 * Expected versus actual said in prose, across lines: what happens is shown ("The results are:", "it prints:")
 * and what should happen is said ("`focal_loss1` should be `0.51168`", "I would expect …").
 */
export const ACTUAL_SHOWN_RE =
  /\b(?:(?:the )?(?:results?|outputs?) (?:is|are|was|were)|(?:it|this|that) (?:returns|prints|outputs|gives|shows)|(?:i|we) (?:get|got|see|saw))\b[^.\n]{0,30}[:：]\s*$/i;
export const EXPECTED_SAID_RE =
  /\bshould (?:be|return|give|show|print|output|equal)\b|\b(?:i|we)(?:'d| would)? expect(?:ed)?\b|\bis supposed to\b/i;
/** An embedded picture: markdown, or an <img> whose source is an address (not an XSS payload quoted in prose). */
export const IMAGE_RE =
  /!\[([^\][]{0,120})\]\([^)\s[]{1,500}\)|<img\b[^<>]{0,500}?\bsrc\s*=\s*["']?(?:https?:\/\/|\/)[^<>]{0,500}>/i;
/** Triple backticks opened and closed on one line are inline code, not a block. */
export const INLINE_FENCE_RE = /```([^`\n]+)```/g;
/** A line that reads as code: statements, calls, declarations, markup, or a shell command. */
export const CODE_LINE_RE =
  /^\s*(?:#include\s*[<"]|#(?:ifdef|ifndef|define|if|endif|pragma)\b|import\s+[\w{*]|from\s+\S+\s+import\b|(?:def|class|function|fn|func|public|private|static|const|let|var|using|package|return)\b\s*[\w({[]|\$\s+\S|(?:npm|npx|pip3?|python3?|node|git|cd|cmake|make|cargo|go|docker|kubectl|yarn|pnpm|bitcoin-cli|curl)\s+\S|<\/?(?!details|summary|br|sub|sup|img|p\b|b\b|i\b)[a-zA-Z][\w-]*[\s>/]|[\w.$[\]]+(?:\s*,\s*[\w.$]+)*\s*(?:=|\+=|-=)\s*[^=\s]|[\w.$]+\([^)]*\)\s*;?\s*$|[\w.$]+\(.*[,{(]\s*$|\w+\s*\([^)]*\)\s*\{|[{}]\s*$|.*;\s*$)/;
/**
 * A line of a log, not code: a timestamp, a progress counter or a level tag opens it, or a tool's name and its
 * npm-style level ("npm ERR! Linux 4.15.0", "gyp WARN …", "npm notice …").
 */
export const LOG_LINE_RE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}|\[\s*\d+%\]|\d+>|\[ ?(?:RUN|OK|INFO|WARN|DEBUG)\b|(?:INFO|WARNING|WARN|DEBUG)[:\s]|[\w-]+ (?:ERR!|WARN\b|notice\b|sill\b|verb\b)(?!\s*[=(]))/i;

/**
 * A log's line pasted without a fence: a level in capitals with a colon or a bracket ("WARNING:tensorflow:…",
 * "ERROR: …", "[INFO] …"), a timestamp, or a tool's tag ("npm ERR!"). Capitals only: "Warning in case this.state is
 * modified …" is the author's sentence.
 */
export const PASTED_LOG_RE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d|\[?(?:INFO|WARNING|WARN|DEBUG|ERROR|FATAL|TRACE)(?::|\]|\s+\[)|[\w-]+ (?:ERR!|WARN)\s)/;

/** A template's offer of a command to the reporter, ending on a colon ("You can obtain the TensorFlow version with:"). */
export const TEMPLATE_OFFER_RE =
  /^\W*you (?:can|may|could) (?:also )?(?:obtain|get|find|collect|print|check|see)\b[^\n]{0,150}[:：]\s*$/i;

/** A thread dump's state line, under each thread's header. */
export const THREAD_STATE_RE = /^\s*java\.lang\.Thread\.State:/;
/** A line that names a failure and is not a frame ("Caused by: …", "java.io.IOException: …", "Exception in thread"). */
export const NAMED_FAILURE_RE =
  /^(?!\s*at\s)(?=.*(?:\b[A-Z]\w*(?:Error|Exception)\b|Caused by|Exception in thread))/;
