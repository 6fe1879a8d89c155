/**
 * The ask finder's patterns (find-ask.ts): the headings that announce the ask or something else, template prompts
 * and placeholders, greetings, and the cues of a request, an imperative, a problem and a question. All anchored or
 * bounded alternations of literal words.
 */
import { PLACEHOLDER_RE as STRUCTURE_PLACEHOLDER_RE } from "./structure-patterns.js";

export const SECTION_ASK_RE =
  /\b(?:describe the (?:bug|issue|problem|feature|enhancement|request|solution you(?:'|’)?d like|change)|(?:bug|issue|problem|feature|request) (?:description|summary|report)|is your (?:feature )?request related to a problem|is your feature request related|summary|description|overview|problem(?: statement)?|the problem|what happened|what(?:'s| is) the (?:problem|issue|bug)|current behaviou?r|actual behaviou?r|feature request|proposal|motivation|the (?:bug|issue)|issue|bug|feature|request|what (?:do you|would you like)|solution you(?:'|’)?d like|proposed (?:solution|feature|change)|use case|desired (?:behaviou?r|feature|solution|outcome)|requested feature|what i want)\b|问题描述|描述|功能描述|需求/i;

/** Headings under which the author says something other than the ask. */
export const SECTION_OTHER_RE =
  /\b(?:steps|to reproduce|reproduc\w*|expected|environment|versions?|system info\w*|platform|os\b|operating system|browser|device|logs?|output|stack ?trace|traceback|error (?:messages?|output|logs?)|call stack|screenshots?|screen recordings?|alternatives?|workarounds?|additional (?:context|information|info|notes)|other (?:context|information|info|notes)|anything else|prerequisites|pre-?flight|code of conduct|terms|related (?:issues?|links?|prs?)|references?|links?|notes?|config\w*|setup|installation|minimal (?:reproduc\w*|example)|code (?:sample|example|snippet)|example|sample|relevant|acceptance criteria|definition of done|tasks?|todo|out of scope|non-goals?|who (?:will|would|does|do) (?:benefit|use)|benefits?|impact|will this change|api changes?)\b|复现|步骤|环境|版本|日志|截图|期望|预期/i;

/** Template prompts and the tracker's boilerplate, at a sentence's start. */
export const PROMPT_RE =
  /^\W*(?:a clear and concise|a (?:short|brief|detailed|clear) description|describe\b|please (?:describe|provide|include|add (?:any|more|screenshots?|logs?|details?|(?:a|the) (?:screenshot|log|version|link|description|minimal|short|clear|following|steps|output))\b|explain|list|link|fill|search|check|note|make sure|use|read|attach|give|tell|share|complete|follow|do not|don'?t|remove|delete|replace|select|choose|confirm|ensure|mark|tick|review)|add any|if applicable|if (?:applicable|possible|relevant|needed|necessary|so|not|any|there|this is a bug|the current)\b|if you(?:'d|’d)? (?:have|are|want|need|can|would|think|believe|encounter|find|know|use|see|like|wish)\b|(?:provide|include|list|paste|attach|share) (?:a|an|any|the|your|all|relevant)\b(?=.{0,120}\b(?:descri\w*|context|details?|information|info|screenshots?|steps|examples?|links?|versions?|logs?|output|code|snippets?|reproduc\w*|you|your|issue|problem|bug|feature|requests?|behaviou?r|alternatives?|changes?|tests?|motivation|use ?cases?|summary)\b)|(?:provide|include|paste|attach|share) (?:steps|screenshots?|logs?|details?)\b|explain\b|tell us|ex\.|e\.g\.|steps to reproduce|what(?:['’]s\b| (?:is|are|would|should|did|do|does|was|were|version|happened|kind|type|browser|os)\b)|why (?:is|are|would|should|do) (?:this|it|you)\b|how (?:would|should|can|could) (?:this|it|we|you) (?:be|help|benefit|solve|improve)\b|is your (?:feature request|problem|request)|is this (?:a|related|feature|request)\b|are you (?:using|willing|interested|able)\b|do you (?:want|have|use)\b|would you (?:like|be willing)\b|one paragraph|fill (?:me|in|this|out)|insert\b|replace this|delete this|\(?note\b|\(?optional\b|\(?required\b|n\/a\b|none\b|no response|_no response_|tbd\b|todo\b|i (?:have |'ve )?(?:searched|checked|read|agree|confirm|made sure|understand|am (?:aware|using the latest)|looked|verified|tried (?:searching|to search))|(?:this|it) is not a duplicate|not a duplicate|before (?:submitting|opening|filing|you)|make sure|thanks?\b|thank you|thx\b|cheers\b|regards\b|best\b|sincerely\b|any help\b|help is appreciated|hope (?:this|it|that|you)\b|sorry\b|apologi[sz]e|pardon|excuse|(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening|day)|howdy|hiya|yo)\b|first(?: of all)?,? (?:thanks?|thank|great|congrat|i love|love)|congrat\w*|(?:great|awesome|amazing|nice|cool|wonderful|fantastic|excellent) (?:project|work|job|library|tool|app|plugin|package|extension|software|repo)|(?:i|we) (?:really )?(?:love|like|enjoy|appreciate) (?:this|your|the) (?:project|work|library|tool|app|plugin|package|extension|software|repo)|love (?:this|your)|keep up|for more information|(?:recreating|reopening|re-?opening|re-?posting|reposting|copying|moving|cross-?posting|following up|follow-?up (?:to|of|on)|as discussed|continuing|originally reported|reported (?:in|at|on)|refs?\b|cc\b|fixes #|closes #|resolves #|duplicate of|same as #|testing #|part of #|for #)|write (?:a|an|the|your|down)\b(?=.{0,80}\b(?:descri\w*|summary|details?|issue|problem|bug|steps|here)\b)|(?:this|the) (?:issue|pr|bug|ticket|report) (?:is|was|may|might|could) (?:be )?(?:related|similar|a follow|a duplicate|a continuation|split|moved|copied|reopened|created|opened|possibly)|(?:possibly|maybe|probably|may be|might be) (?:related|a duplicate)|(?:this|it) is (?:the same as|similar to|related to|a duplicate of|a follow-?up (?:to|of))\b|see (?:the |our )?(?:docs|documentation|contributing|guidelines|faq)|this (?:template|form|issue template)|(?:our|the) (?:contributing|guidelines|code of conduct)|by (?:submitting|opening|filing|clicking))/i;

/**
 * A sentence that only names the task's kind ("This is a feature request.", "** This is both bug / feature"): a form's
 * label or the author's, it is no ask and no sentence to quote as the author's account.
 */
export const KIND_NAMED_RE =
  /^\W*(?:this|it)(?: is|'s|’s) (?:(?:both|either|just|kind of|more of) )?(?:an? )?(?:feature request|bug report|bug|question|enhancement|feature|proposal|request)(?:\s*(?:\/|and|or|,)\s*(?:an? )?(?:feature request|bug report|bug|question|enhancement|feature|proposal|request))*[.!]?\s*$/i;

/** Placeholders a template leaves for the reporter: the structure's (structure-patterns.ts), and a version's "x.y.z". */
export const PLACEHOLDER_RE = new RegExp(`${STRUCTURE_PLACEHOLDER_RE.source}|\\bx\\.y\\.z\\b`, "i");

/** A greeting or a salutation opening the sentence that holds the ask: the ask is what follows it. */
export const GREETING_PREFIX_RE =
  /^(?:(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening|day)|howdy|hiya)(?:\s+(?:all|team|everyone|everybody|there|guys|folks|maintainers|devs|developers|friends|@[\w-]{1,40}|[A-Z][\w-]{0,30}))?\s*[,!.:;—–-]+\s*)+/i;

/** Request cues: the author asks for something. */
export const REQUEST_RE =
  /\b(?:please|pls|plz|kindly|would (?:love|like|appreciate|help)|(?:i|we)(?:'d|’d| would)?(?: (?:really|very much|much|also|just|rather|definitely|greatly|still))? (?:like|love|want|need|wish|hope|prefer)\b|(?:i|we)(?:'m|’m| am| are) (?:requesting|asking|proposing|suggesting|looking for)|(?:i|we) (?:propose|suggest|request)|(?:can|could|would|will|should) (?:we|you|it|this|there|one|i|the|they|someone)\b|(?:we|you|one|it|they) (?:could|can|should|might|may) (?:add|support|have|use|make|allow|provide|implement|introduce|expose|offer|consider|change|improve|extend|include|switch|move|drop|remove|replace|print|log|emit|record|show|display|output|cache|skip|validate)\b|is (?:it|there) (?:possible|a way|any way|an option|a plan|any plan)|are there (?:any )?plans|any plans?|possible to|support(?:s|ed|ing)? (?:for|of)|add(?:ing)? (?:support|an? option|the ability|a (?:way|setting|flag|button|feature))|(?:(?:an? )?(?:option|ability|setting|flag)|(?:an?|any|some|no)(?: [a-z]+)? way) to|allow (?:us|users?|people|me|for|to)|feature request|my suggestion|proposal|should (?!have been (?:fixed|resolved|addressed|solved|closed|merged|done)\b)(?:be|have|support|allow|use|not|also|include|work|show|return|accept|handle|display|provide|offer|let|respect)|needs? to (?:be|have|support)|must (?:be|support|allow|have)|instead of|rather than|(?:it(?:'d|’d| would| will)|would|will|could) be (?:nice|great|good|helpful|useful|cool|awesome|better|ideal|convenient|handy|beneficial|valuable)|(?:nice|good|great) to have|(?:would|could|will) (?:make|help|allow|enable|improve|simplify|save)|i (?:wish|hope)|wishlist|how (?:do|can|should|could|would) (?:i|we|you|one)|how to\b|(?:wanted|want|wanting|like) to know (?:if|whether|how)|wondering (?:if|whether|how)|(?:this|the) (?:task|ticket|issue|jira|story|item) (?:is|aims|proposes) to (?!do with\b)|(?:this|the|my) (?:pr|pull request|patch|change|commit) (?:wants? to|aims? to|adds|introduces|implements|fixes|allows|removes|proposes|makes|changes|updates|improves))/i;

/** Imperative verbs that open a request ("Add a dark mode", "Allow exporting …"). */
export const IMPERATIVE_RE =
  /^(?:please\s+)?(?:add|allow|support|implement|make|provide|enable|disable|introduce|create|expose|remove|replace|update|upgrade|fix|use|change|improve|let|show|hide|display|include|extend|rename|move|switch|convert|migrate|deprecate|drop|integrate|offer|return|accept|handle|respect|document|clarify|refactor|split|merge|publish|release|bump|set|unify|standardi[sz]e|avoid|prevent|ensure|restore|reduce|increase|optimi[sz]e|simplify|port|adopt)(?:s|es)?\b|^(?:please\s+)?(?:throw|raise|log|warn|print|emit|reject|skip|ignore|limit|retry|shut ?down)\b/i;

/**
 * Problem cues: something goes wrong. Only words that say so themselves: background ("I tried", "when I run …"),
 * contrast ("however", "instead") and a log's "warning" or "deprecated" chose sentences a maintainer read as
 * not the ask (a reading of 60 comments beside their issues).
 */
export const PROBLEM_RE =
  /\b(?:fail(?:s|ed|ing|ure|ures)?|crash(?:es|ed|ing)?|errors?(?! (?:handling|reporting|logging|boundar))|exceptions?|throws?|threw|panics?|panicked|segfaults?|hangs?|hung|freez(?:es|ing|e)|stuck|broken|breaks?|bug(?:gy|s)?|issue with|problems?(?! (?:tracking|solving|solver|statement|description|reports?|reporting|determination|diagnosis|analysis|detection|areas?|domain|space|set|sets|instance|instances|size))|wrong(?:ly)?|incorrect(?:ly)?|unexpected(?:ly)?|inconsistent|invalid|missing|no longer|not (?:working|work|shown|showing|displayed|saved|saving|loading|loaded|found|possible|supported|respected|applied|updated|updating|correct|able)|(?:does|do|did|is|are|was|were|can|could|will|would|has|have)(?:n['’]?t| not) (?:work|show|load|save|open|find|start|run|compile|build|render|display|appear|get|seem|exist|respect|apply|update|support|allow|return|accept|recogni[sz]e|handle|detect|match|close|stop|connect|sync|install|import|export|print|trigger|fire|happen|change|reflect|include|contain|take|make|see|use|affect)\w*|(?:can['’]?t|cannot|can not|unable to|impossible to|won['’]?t|doesn['’]?t|does not|isn['’]?t|aren['’]?t|didn['’]?t)\b|stopped (?:working|\w+ing)|los(?:es|t|ing) (?:the |all |my |our |its |their |any |some )?(?:\w+ )?(?:data|changes?|work|draft|drafts|files?|settings?|state|connection|focus|input|progress|history|messages?|content|selection|edits?|records?|entries)|regression|leak(?:s|ing)?|slow(?:er|ly|ness)?|timeouts?|timed? out|corrupt\w*|out of memory|oom|runs? out of|ignor(?:es|ed|ing)|vulnerab\w*|unintuitive|not intuitive|hard to|difficult to|painful|tedious|cumbersome|impossible)\b|报错|错误|出错|失败|崩溃|闪退|无法|不能|不行|问题|异常|バグ|エラー|できない|動かない|失敗|не работает|ошибк|не могу|проблем|fehler|erreur|no funciona/i;

/** A real question: a question word opens it (or its main clause, after a clause and a comma: "If it's not a bug,
 * then what's the way to …?"), and it ends with "?" with words enough. */
export const QUESTION_RE =
  /^(?:[^?？,]{0,80},\s*(?:then\s+|so\s+)?)?(?:how|why|what|where|when|which|is|are|can|could|would|will|should|does|do|did|has|have|any)\b[^?？]{8,}[?？]\s*$/i;

export const CJK_REQUEST_RE =
  /希望|请|能否|可否|是否可以|可以.{0,20}吗|支持|添加|增加|建议|需要|怎么|如何|欲しい|ほしい|してください|お願い|追加/;

/**
 * A lead-in to a list, a paste or an example ("… the following error is returned:", "… like this", "Here's my
 * configuration log"): it introduces what follows rather than stating the ask.
 */
export const LEAD_IN_RE =
  /:\s*$|\b(?:like this|as follows|the following|below|this way)\s*[.:]?\s*$|^(?:below is|attached is)\b|\bhere(?:'s|’s| is| are) (?:my|the|a|an|our|some)\b/i;

/** A question word anywhere in a sentence (a question that opens on a clause: "…, but why?"). */
export const ASKS_WORD_RE = /\b(?:why|how|what|which|where|when|whether)\b/i;

/** A paragraph that ends by announcing pasted output: "… it throws the following error:", "Here is the log:". */
export const PASTE_LEAD_IN_RE =
  /\b(?:errors?|exceptions?|output|message|messages|logs?|traceback|trace|following|shows?|says|prints?|returns?|throws?|gives?|got|get)\b[^\n]{0,40}:\s*$/i;

/**
 * A pointer to what was posted elsewhere ("I posted the full backtraces in …", "Attached is the log", "Please see the
 * attached document for the design"): no ask.
 */
export const POINTER_RE =
  /^(?:(?:please |kindly )?(?:see|refer to|check|find) (?:the |my |our )?(?:attached|linked|enclosed|above|below|following|design|proposal) ?(?:doc(?:ument)?s?|files?|pdf|patch|design|proposal|link|page|screenshots?|logs?|details)?\b|(?:i|we)(?: have|'ve|’ve)? (?:posted|attached|uploaded|linked|shared|put|included|added) (?:the |a |an |my |our |some |all |full |more )|(?:the )?(?:full |complete )?(?:backtraces?|logs?|stack ?traces?|screenshots?|details) (?:are|is) (?:attached|posted|here|below|above|in)\b)/i;
/**
 * A sentence that gives only a cause ("Due to very large integer argument", "Presumably because …", "The reason is
 * that when I used the terminal …"): no ask.
 */
export const CAUSE_RE =
  /^(?:(?:probably|presumably|likely|maybe|possibly|perhaps|most likely|i think it'?s)\s+)?(?:due to|because|caused by|as a result of|the reason (?:is|was|being|for this is)|this is because)\b/i;

/**
 * A place in a file as a tool prints it: "main.py:12", "ValueQueue.java:[line 332]", a Python traceback's frame
 * ('File "train.py", line 82'). A line or sentence holding one is a paste, not the author's prose.
 */
export const FILE_LINE_RE = /\.\w{1,6}:\[?(?:line )?\d+|\bFile "[^"\n]{1,300}", line \d+/;
