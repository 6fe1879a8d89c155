/**
 * Each persona as one data record: who it is, its angle, what raises and lowers its score, the areas it
 * weighs, how it reads each kind of task, and its LLM rubric. The offline judge (leanings, reasoning), the
 * LLM prompts and the comment all read these records; nothing about a persona lives anywhere else.
 */
import type { EvidenceType } from "./contract.js";
import type { PersonaId } from "./personas.js";

/** Evidence that moves a persona from the consensus (before re-centring), in points. */
export type EvidenceLean = Partial<
  Record<
    | "steps"
    | "trace"
    | "code_or_versions"
    | "none_on_a_bug"
    | "screenshot_or_expected"
    | "acceptance"
    | "no_acceptance_on_a_feature"
    | "demand",
    number
  >
>;

export interface PersonaRecord {
  /** What raises this persona's score, in words (shown to the LLM and in the docs). */
  raises: readonly string[];
  /** What lowers it. */
  lowers: readonly string[];
  /** The evidence this persona quotes in its reasoning when the reader finds it, with the label it uses. */
  quotes: readonly (readonly [EvidenceType, string])[];
  /** The evidence leanings the offline judge applies for this persona. */
  evidence: EvidenceLean;
  /** The areas (the concepts of words/concepts.json) it weighs: how much, and why it matters to this persona. */
  areas: Readonly<Record<string, { weight: number; why?: string }>>;
  /** How it reads each kind of task: its leaning (points) and its angle ("It reads as …"). */
  kinds: Readonly<Record<string, { leaning?: number; angle?: string }>>;
  /** How the offline judge's reasoning speaks for this persona (offline/reasoning.ts). */
  voice: {
    /**
     * One short honest sentence for a text with nothing that speaks to this persona; "{subject}" is "in" and the
     * title in quotes (or "here").
     */
    nothing: string;
    /**
     * How it introduces the author's sentence on one of its areas, where the area is the task's subject (its word in
     * the title); "{area}" is the area's label.
     */
    area: string;
    /**
     * How it introduces such a sentence where the area is only mentioned (a dark theme named as the reference for
     * checking colours is no dark-mode task: fresh maintainer's readings counted the label as a false claim);
     * "{word}" is the area's word as the author wrote it.
     */
    mention: string;
    /**
     * The author's sentences it reads when the reader found no evidence and no area of its own: words that mark
     * them (lower case, whole words), and how it introduces the quote, naming the word that chose it ("{word}").
     * A word must name the stake itself, so "many", "others" and "share" (who), "type", "see", "text" and
     * "link" (what people meet), and "type" and "implementation" (the technical core) are left out: they chose
     * sentences about data types, counts and benefits that a maintainer read as false claims (issue 35).
     */
    lens: { words: readonly string[]; say: string };
    /** What would raise its score, by kind of task, said after its quote where the reading found none of `unless`. */
    raise: readonly { kinds: readonly string[]; unless: readonly EvidenceType[]; say: string }[];
  };
  /** The LLM prompt: bump `version` whenever the text changes (it keys the shared cache). */
  llm: { version: string; guidance: string; rubric: readonly { scores: string; meaning: string }[] };
}

export const PERSONA_RECORDS: Readonly<Record<PersonaId, PersonaRecord>> = {
  revenue: {
    raises: [
      "payment, pricing, upgrades and invoices",
      "a count of customers asking",
      "retention of paying customers",
    ],
    lowers: ["internal work with no path to money", "giving paid features away"],
    quotes: [["demand", "Demand"]],
    evidence: {
      demand: 0.5,
    },
    areas: {
      payments: {
        weight: 4,
        why: "opens or widens a direct path to taking money",
      },
      pricing: {
        weight: 3.5,
        why: "shapes pricing or monetisation directly",
      },
      donation: {
        weight: 2.5,
        why: "adds a way to receive money, though donations are small and irregular",
      },
      currency: {
        weight: 3,
        why: "lets customers pay in their own currency, which lifts conversion abroad",
      },
      "growth-marketing": {
        weight: 1.5,
        why: "feeds the top of the sales funnel",
      },
      analytics: {
        weight: 1,
        why: "helps find where revenue is won or lost",
      },
      integration: {
        weight: 0.5,
        why: "can help close deals that depend on an integration",
      },
      enterprise: {
        weight: 2,
        why: "unlocks larger customers who pay more",
      },
      security: {
        weight: 0.5,
        why: "lowers the risk of losing customers over a breach",
      },
      defect: {
        weight: 0.5,
        why: "protects retention: broken software loses customers",
      },
      outage: {
        weight: 2,
        why: "stops users from using what they pay for, which drives churn",
      },
      "data-loss": {
        weight: 1.5,
        why: "protects the trust paying customers place in their data",
      },
      "user-demand": {
        weight: 0.5,
        why: "serves paying customers",
      },
      competitive: {
        weight: 0.5,
        why: "can win customers from alternatives",
      },
      localization: {
        weight: 1,
        why: "reaches customers who would not buy in English",
      },
      collaboration: {
        weight: 1,
        why: "spreads the product across teams, which leads to more seats",
      },
      audience: {
        weight: 0.25,
        why: "concerns the people who pay",
      },
      "data-portability": {
        weight: 0.25,
        why: "removes a small obstacle for buyers",
      },
      "revenue-claim": {
        weight: 1,
        why: "claims an effect on revenue, without a payment or pricing change behind it",
      },
      hype: {
        weight: -1.5,
        why: "leans on promises rather than a way to earn money",
      },
    },
    kinds: {
      feature: {
        leaning: 0,
        angle: "a feature request; new capability pays off only if it wins or keeps paying users",
      },
      bug: {
        leaning: -0.5,
        angle: "a bug report; defects cost trust more than they cost revenue directly",
      },
      "bug.crash": {
        leaning: 0,
        angle: "a crash; crashes drive users away",
      },
      "bug.data_loss": {
        leaning: 0.5,
        angle: "a data-loss bug; losing users' data loses customers",
      },
      "bug.security": {
        leaning: 0.5,
        angle: "a security problem; a breach costs customers and contracts",
      },
      "bug.wrong_result": {
        leaning: 0,
        angle: "a bug report about wrong or missing behaviour; errors cost trust",
      },
      "bug.cosmetic": {
        leaning: -1,
        angle: "a cosmetic problem, with no revenue at stake",
      },
      "refactor.removes": {
        leaning: -1,
        angle: "a refactor; customers will not see it",
      },
      "refactor.adds": {
        leaning: 0,
        angle: "a shortcut in the code; customers will not see it",
      },
      refactor: {
        leaning: -1,
        angle: "a refactor; customers will not see it",
      },
      docs: {
        leaning: -1,
        angle: "a documentation task, with little revenue at stake",
      },
      chore: {
        leaning: -1,
        angle: "maintenance work (dependencies, releases, CI); customers will not see it",
      },
      question: {
        leaning: 0,
        angle: "a question about using the software rather than a request for work",
      },
    },
    voice: {
      nothing: "Nothing {subject} speaks to pricing or revenue.",
      area: "For revenue, it touches {area}",
      mention: "For revenue, the author mentions “{word}”",
      lens: {
        words: [
          "customer",
          "customers",
          "paying",
          "paid",
          "business",
          "businesses",
          "commercial",
          "enterprise",
          "production",
          "cost",
          "costs",
          "expensive",
          "license",
          "licensing",
          "revenue",
          "sales",
          "subscribers",
          "price",
          "prices",
          "money",
        ],
        // Not "clients": in a tracker it is a program's client ("HTTP clients get a 503") far more often than a
        // paying one (a fresh reading's contradiction). Not "subscription": as often an event's, a stream's or an
        // MQTT topic's ("a CLI command which subscribes to …", "Subscription management comes with a cost") as a
        // customer's; "subscribers" are people.
        say: "For paying users, the author writes of “{word}”",
      },
      raise: [
        {
          kinds: ["feature"],
          unless: ["demand"],
          say: "a count of paying customers who want it would raise my score",
        },
        { kinds: ["bug"], unless: ["demand"], say: "how many paying users it hits would raise my score" },
      ],
    },
    llm: {
      version: "revenue-2",
      guidance:
        "Think like someone who owns the company's revenue line. Ask: does this let customers pay, pay more, or pay sooner (checkout, billing, plans, upgrades, invoices)? Does it improve pricing or packaging, reduce churn of paying customers, or open a new revenue stream? Internal work with no path to money scores low from your angle even if it is useful; say so plainly.",
      rubric: [
        {
          scores: "1-2",
          meaning:
            "No link to revenue at all, or it puts revenue at risk (breaks payments, gives paid features away); spam or not a task.",
        },
        {
          scores: "3-4",
          meaning: "Only a distant, speculative link to money; mostly internal work.",
        },
        {
          scores: "5-6",
          meaning:
            "Indirect revenue value: retention, conversion or upsell may improve, but the effect is unclear or unmeasured.",
        },
        {
          scores: "7-8",
          meaning:
            "A clear path to revenue: it enables or improves payment, pricing, upgrades or retention of paying customers.",
        },
        {
          scores: "9-10",
          meaning:
            "Directly creates or unlocks significant revenue (a new paid offer, checkout for a plan) with a well-described scope.",
        },
      ],
    },
  },
  architect: {
    raises: [
      "refactors that pay technical debt down",
      "steps to reproduce, error output, code and versions",
      "integration work done with care",
    ],
    lowers: [
      "hard-coding, copy-paste and bulk generated content",
      "a bug report without steps or error output",
    ],
    quotes: [
      ["trace", "Error output to start from"],
      ["steps", "Steps to follow"],
      ["versions", "Versions"],
      ["code", "Code to start from"],
    ],
    evidence: {
      steps: 0.5,
      trace: 0.5,
      code_or_versions: 0.5,
      none_on_a_bug: -0.5,
    },
    areas: {
      payments: {
        weight: 1.5,
        why: "is integration work with an external payment provider, which needs care with webhooks, idempotency and secrets",
      },
      currency: {
        weight: 0.5,
        why: "touches money handling, where rounding and conversion must be exact",
      },
      "visible-ui": {
        weight: 0.5,
        why: "is front-end work with a contained footprint",
      },
      "dark-mode": {
        weight: 0.5,
        why: "is mostly theming work, cleanest with design tokens or CSS variables",
      },
      usability: {
        weight: 0.5,
        why: "is a contained change to interaction code",
      },
      notifications: {
        weight: 0.5,
        why: "adds a delivery path that needs queuing and opt-out handling",
      },
      analytics: {
        weight: 0.5,
        why: "adds data collection that must respect privacy and performance",
      },
      integration: {
        weight: 2.5,
        why: "is integration work that connects systems through defined interfaces",
      },
      enterprise: {
        weight: 0.5,
        why: "adds access-control surface that needs careful design",
      },
      "ai-feature": {
        weight: -0.5,
        why: "brings model cost, latency and non-determinism to manage",
      },
      "bulk-generation": {
        weight: -3,
        why: "is bulk generation: it produces volume that someone must review and maintain, rather than integrating components",
      },
      "tech-debt": {
        weight: 3,
        why: "pays down technical debt or improves the build, which keeps the codebase healthy",
      },
      testing: {
        weight: 2,
        why: "adds tests, which protect code quality",
      },
      performance: {
        weight: 2.5,
        why: "improves efficiency, which is measurable engineering quality",
      },
      security: {
        weight: 2.5,
        why: "reduces security or privacy risk in the code",
      },
      defect: {
        weight: 1.5,
        why: "fixes broken behaviour in the code",
      },
      outage: {
        weight: 1.5,
        why: "fixes a crash or hang in the code",
      },
      "data-loss": {
        weight: 2,
        why: "concerns data integrity",
      },
      localization: {
        weight: 0.5,
        why: "needs string externalisation done once, properly",
      },
      documentation: {
        weight: 0.5,
        why: "documents how the system is used",
      },
      removal: {
        weight: 1.5,
        why: "removes something, which shrinks what must be maintained",
      },
      collaboration: {
        weight: 0.5,
        why: "brings shared state and permissions to get right",
      },
      "fix-request": {
        weight: 0.75,
        why: "asks for a correction in the code",
      },
      "data-portability": {
        weight: 1,
        why: "adds a data format to read or write, with its edge cases",
      },
      backend: {
        weight: 2,
        why: "is backend engineering with clear technical substance",
      },
      hype: {
        weight: -1,
        why: "promises outcomes instead of describing the work",
      },
    },
    kinds: {
      feature: {
        leaning: 0,
        angle: "a feature request: new code to design, build and maintain",
      },
      bug: {
        leaning: 0.5,
        angle: "a bug report: a defect to find and fix at its root",
      },
      "bug.crash": {
        leaning: 0.5,
        angle: "a crash: a hard failure to find and fix at its root",
      },
      "bug.data_loss": {
        leaning: 0.5,
        angle: "a data-loss bug: the most serious kind of defect",
      },
      "bug.security": {
        leaning: 1,
        angle: "a security problem: it has to be fixed properly, not patched over",
      },
      "bug.wrong_result": {
        leaning: 0.5,
        angle: "a bug report about wrong or missing behaviour: a defect to fix at its root",
      },
      "bug.cosmetic": {
        leaning: -0.5,
        angle: "a cosmetic problem: small, low-risk work",
      },
      "refactor.removes": {
        leaning: 1.5,
        angle: "a refactor that pays down technical debt",
      },
      "refactor.adds": {
        leaning: -1.5,
        angle: "a change that adds technical debt rather than paying it down",
      },
      refactor: {
        leaning: 1.5,
        angle: "a refactor of existing code",
      },
      docs: {
        leaning: 0,
        angle: "a documentation task: low-risk work",
      },
      chore: {
        leaning: 1.5,
        angle: "maintenance work (dependencies, releases, CI) that keeps the project healthy",
      },
      question: {
        leaning: 0,
        angle: "a question about using the software rather than a request for work",
      },
    },
    voice: {
      nothing: "Nothing {subject} says what would change in the code.",
      area: "Technically, it is about {area}",
      mention: "Technically, the author mentions “{word}”",
      lens: {
        words: [
          "function",
          "method",
          "class",
          "module",
          "api",
          "endpoint",
          "config",
          "configuration",
          "build",
          "compile",
          "compiler",
          "install",
          "import",
          "library",
          "package",
          "dependency",
          "server",
          "database",
          "query",
          "memory",
          "thread",
          "parameter",
          "argument",
          "returns",
          "return",
          "file",
          "files",
          "model",
          "layer",
          "kernel",
          "op",
          "ops",
          "tensor",
          "component",
          "hook",
          "props",
          "state",
          "render",
          "cache",
          "process",
          "script",
          "command",
          "flag",
          "option",
          "options",
          "code",
        ],
        say: "For the code, the author writes of “{word}”",
      },
      raise: [
        {
          kinds: ["bug"],
          unless: ["steps", "trace", "code"],
          say: "steps or error output would let me find the root cause",
        },
        {
          kinds: ["feature"],
          unless: ["code", "acceptance"],
          say: "where it fits in the code, or a sketch of its interface, would let me size it",
        },
      ],
    },
    llm: {
      version: "architect-2",
      guidance:
        "Think like the engineer who must build and maintain this. Value careful integration work (APIs, payment providers, data migrations done safely), paying down technical debt, tests, security and clear scope. Be wary of bulk or generated work (mass-produced pages, copy-pasted code), vague tasks that cannot be estimated, and changes that add debt or risk without a plan.",
      rubric: [
        {
          scores: "1-2",
          meaning:
            "Harmful to the codebase (adds serious debt or risk), bulk generation with no engineering value, or not a task at all.",
        },
        {
          scores: "3-4",
          meaning: "Too vague to build or estimate, or mostly churn with little technical merit.",
        },
        {
          scores: "5-6",
          meaning: "Ordinary work of reasonable quality; some risks or unknowns are not addressed.",
        },
        {
          scores: "7-8",
          meaning: "Well-scoped integration or quality work that improves the system, with risks understood.",
        },
        {
          scores: "9-10",
          meaning:
            "Excellent engineering: removes real debt or integrates cleanly, with a clear plan, tests and acceptance criteria.",
        },
      ],
    },
  },
  ux: {
    raises: [
      "visible interface, usability and accessibility",
      "crashes and broken flows users meet",
      "screenshots and expected versus actual behaviour",
    ],
    lowers: ["back-end work users never see"],
    quotes: [
      ["expected_actual", "What people expect versus get"],
      ["screenshot", "What people see"],
      ["steps", "The path a user takes"],
    ],
    evidence: {
      screenshot_or_expected: 0.5,
    },
    areas: {
      payments: {
        weight: 1.5,
        why: "changes a flow paying users go through",
      },
      pricing: {
        weight: 0.5,
        why: "adds a pricing surface users meet",
      },
      donation: {
        weight: 0.5,
        why: "adds a way for supporters to give",
      },
      currency: {
        weight: 1,
        why: "shows prices in terms buyers understand",
      },
      "visible-ui": {
        weight: 2.5,
        why: "changes something users see and touch",
      },
      "dark-mode": {
        weight: 3.5,
        why: "is a long-standing user request for comfort and accessibility, seen on every visit",
      },
      usability: {
        weight: 3,
        why: "removes friction from something users do often",
      },
      notifications: {
        weight: 2,
        why: "keeps users informed without them checking",
      },
      "growth-marketing": {
        weight: 0.5,
        why: "shapes the first impression",
      },
      analytics: {
        weight: 0,
      },
      "bulk-generation": {
        weight: -0.5,
        why: "tends to produce output users must sift through",
      },
      "tech-debt": {
        weight: -0.5,
        why: "is internal: users will not notice it directly",
      },
      performance: {
        weight: 2,
        why: "makes the product feel faster for everyone",
      },
      security: {
        weight: 1,
        why: "protects users, even if they rarely see it",
      },
      defect: {
        weight: 2.5,
        why: "fixes something that breaks for users today",
      },
      outage: {
        weight: 3,
        why: "fixes a failure that stops users from using the product at all",
      },
      "data-loss": {
        weight: 2,
        why: "protects users' data, the worst thing to lose",
      },
      "user-demand": {
        weight: 1,
        why: "is grounded in what users ask for",
      },
      localization: {
        weight: 2,
        why: "lets more people use the product in their own language",
      },
      documentation: {
        weight: 1,
        why: "helps users succeed with what exists",
      },
      collaboration: {
        weight: 1.5,
        why: "lets people work together where they already are",
      },
      audience: {
        weight: 0.75,
        why: "is aimed at the people who use the product",
      },
      "fix-request": {
        weight: 0.75,
        why: "asks for something to be corrected",
      },
      "data-portability": {
        weight: 1.5,
        why: "lets users take their data where they need it",
      },
      hype: {
        weight: -1,
        why: "promises outcomes instead of describing what users get",
      },
    },
    kinds: {
      feature: {
        leaning: 0.5,
        angle: "a feature request: something new for people to find and use",
      },
      bug: {
        leaning: 0.5,
        angle: "a bug report: something does not work the way people expect",
      },
      "bug.crash": {
        leaning: 1,
        angle: "a crash: the worst experience software can give",
      },
      "bug.data_loss": {
        leaning: 0.5,
        angle: "a data-loss bug: nothing erodes trust faster",
      },
      "bug.security": {
        leaning: 0,
        angle: "a security problem: users trust the product to keep them safe",
      },
      "bug.wrong_result": {
        leaning: 0.5,
        angle: "a bug report: something does not work the way people expect",
      },
      "bug.cosmetic": {
        leaning: 1,
        angle: "a cosmetic problem: small, but people see it",
      },
      "refactor.removes": {
        leaning: -0.5,
        angle: "a refactor; users will not see it",
      },
      "refactor.adds": {
        leaning: 0,
        angle: "a shortcut in the code; users will not see it",
      },
      refactor: {
        leaning: -0.5,
        angle: "a refactor; users will not see it",
      },
      docs: {
        leaning: 0.5,
        angle: "a documentation task: good docs are part of the experience",
      },
      chore: {
        leaning: -0.5,
        angle: "maintenance work; users will not see it directly",
      },
      question: {
        leaning: 0,
        angle: "a question about using the software; it may point at unclear docs or design",
      },
    },
    voice: {
      nothing: "Nothing {subject} says what people see or do.",
      area: "For the people using it, it is about {area}",
      mention: "For the people using it, the author mentions “{word}”",
      lens: {
        words: [
          "click",
          "clicking",
          "button",
          "screen",
          "page",
          "window",
          "dialog",
          "menu",
          "tab",
          "view",
          "display",
          "displayed",
          "displays",
          "shows",
          "shown",
          "appears",
          "visible",
          "icon",
          "message",
          "ui",
          "interface",
          "user",
          "users",
          "scroll",
          "typing",
          "keyboard",
          "shortcut",
          "editor",
          "panel",
          "sidebar",
          "popup",
          "tooltip",
          "font",
          "color",
          "colour",
          "theme",
          "layout",
          "workflow",
          "experience",
        ],
        say: "For what people meet, the author writes of “{word}”",
      },
      raise: [
        {
          kinds: ["bug"],
          unless: ["expected_actual", "screenshot"],
          say: "what the user expected against what happened, or a screenshot, would show the harm",
        },
        {
          kinds: ["feature"],
          unless: ["screenshot"],
          say: "a mock-up of what people would see would raise my score",
        },
      ],
    },
    llm: {
      version: "ux-2",
      guidance:
        "Think like the person who watches users struggle. Ask: will users notice this, use it, and be better off? Does it remove friction, confusion or an accessibility barrier that real users hit? Invisible back-end work scores in the middle at best from your angle unless it makes the product faster or more reliable for users; changes that add friction or clutter score low.",
      rubric: [
        {
          scores: "1-2",
          meaning:
            "Makes the experience worse (adds friction, dark patterns, clutter), or spam / not a task.",
        },
        {
          scores: "3-4",
          meaning: "Users will hardly notice it, or it solves no problem users have.",
        },
        {
          scores: "5-6",
          meaning: "Some visible benefit to users, but the problem it solves is unclear or minor.",
        },
        {
          scores: "7-8",
          meaning: "Solves a real, recognisable user problem in a part of the product people use.",
        },
        {
          scores: "9-10",
          meaning:
            "A clear, well-described improvement to a core user journey or to accessibility that many users will feel.",
        },
      ],
    },
  },
  product: {
    raises: [
      "acceptance criteria (what done looks like)",
      "evidence of demand",
      "broken behaviour ahead of new work",
    ],
    lowers: ["a feature request without acceptance criteria", "support questions"],
    quotes: [
      ["acceptance", "Acceptance"],
      ["demand", "How many want it"],
    ],
    evidence: {
      acceptance: 0.5,
      no_acceptance_on_a_feature: -0.5,
      demand: 0.5,
    },
    areas: {
      payments: {
        weight: 2,
        why: "touches how customers pay, which is core to the business",
      },
      pricing: {
        weight: 1.5,
        why: "affects packaging and what customers pay for",
      },
      donation: {
        weight: 0.5,
        why: "serves supporters rather than core users",
      },
      currency: {
        weight: 1.5,
        why: "opens international markets",
      },
      "visible-ui": {
        weight: 0.5,
        why: "is visible to users",
      },
      "dark-mode": {
        weight: 1.5,
        why: "is a commonly requested table-stakes feature",
      },
      usability: {
        weight: 1.5,
        why: "improves everyday use of the product",
      },
      notifications: {
        weight: 1.5,
        why: "helps retention by bringing users back",
      },
      "growth-marketing": {
        weight: 1,
        why: "supports acquisition",
      },
      analytics: {
        weight: 2,
        why: "gives the team data to decide priorities",
      },
      integration: {
        weight: 1.5,
        why: "makes the product fit into customers' existing tools",
      },
      enterprise: {
        weight: 1.5,
        why: "removes blockers for business adoption",
      },
      "ai-feature": {
        weight: 1,
        why: "follows current market demand, if it solves a concrete problem",
      },
      "bulk-generation": {
        weight: -0.5,
        why: "risks quantity over a focused solution",
      },
      "tech-debt": {
        weight: 0.5,
        why: "is maintenance that enables future work",
      },
      testing: {
        weight: 0.5,
        why: "reduces the risk of regressions",
      },
      performance: {
        weight: 1.5,
        why: "improves a quality users notice",
      },
      security: {
        weight: 2,
        why: "protects users' trust, which outranks most features",
      },
      defect: {
        weight: 2,
        why: "is a defect, and working software outranks new features",
      },
      outage: {
        weight: 2.5,
        why: "is a severe defect that blocks users, which outranks new work",
      },
      "data-loss": {
        weight: 2,
        why: "is a top-priority trust issue",
      },
      "user-demand": {
        weight: 2,
        why: "points to real user demand",
      },
      competitive: {
        weight: 2,
        why: "responds to the competitive landscape",
      },
      localization: {
        weight: 1.5,
        why: "widens the addressable market",
      },
      documentation: {
        weight: 0.5,
        why: "lowers the support burden",
      },
      collaboration: {
        weight: 2,
        why: "makes the product useful to whole teams, which deepens adoption",
      },
      audience: {
        weight: 0.75,
        why: "is aimed at users",
      },
      "fix-request": {
        weight: 0.75,
        why: "asks for a correction",
      },
      "data-portability": {
        weight: 1.5,
        why: "removes a reason users leave or work around the product",
      },
      backend: {
        weight: 0.25,
        why: "is infrastructure work behind the product",
      },
      "revenue-claim": {
        weight: 0.25,
        why: "claims a business outcome",
      },
      hype: {
        weight: -1.5,
        why: "sells the idea instead of stating the problem",
      },
    },
    kinds: {
      feature: {
        leaning: 0.5,
        angle: "a feature request, to weigh against the rest of the roadmap",
      },
      bug: {
        leaning: 0.5,
        angle: "a bug report: broken behaviour ranks ahead of new work",
      },
      "bug.crash": {
        leaning: 0.5,
        angle: "a crash, which ranks ahead of new work",
      },
      "bug.data_loss": {
        leaning: 0.5,
        angle: "a data-loss bug, which ranks ahead of everything else",
      },
      "bug.security": {
        leaning: 0.5,
        angle: "a security problem, which ranks ahead of new work",
      },
      "bug.wrong_result": {
        leaning: 0.5,
        angle: "a bug report: broken behaviour ranks ahead of new work",
      },
      "bug.cosmetic": {
        leaning: 0,
        angle: "a cosmetic problem: worth doing when it is cheap",
      },
      "refactor.removes": {
        leaning: 0,
        angle: "a refactor: an investment in speed of later work",
      },
      "refactor.adds": {
        leaning: 0,
        angle: "a shortcut that later work will pay for",
      },
      refactor: {
        leaning: 0,
        angle: "a refactor: an investment in speed of later work",
      },
      docs: {
        leaning: 0.5,
        angle: "a documentation task: cheap, and it helps users succeed",
      },
      chore: {
        leaning: 0,
        angle: "maintenance work: it keeps the project shippable",
      },
      question: {
        leaning: -0.5,
        angle: "a support question rather than a request for work",
      },
    },
    voice: {
      nothing: "The description states no request or problem in the author's own words.",
      area: "On the roadmap, it belongs with {area}",
      mention: "On the roadmap, the author mentions “{word}”",
      lens: {
        words: [
          "need",
          "needs",
          "want",
          "wants",
          "should",
          "would",
          "could",
          "request",
          "propose",
          "proposal",
          "suggest",
          "instead",
          "currently",
          "goal",
          "useful",
          "helpful",
          "better",
        ],
        say: "For the plan, the author writes “{word}”",
      },
      raise: [
        { kinds: ["feature"], unless: ["acceptance"], say: "acceptance criteria would make it plannable" },
        {
          kinds: ["bug"],
          unless: ["steps", "expected_actual"],
          say: "steps and the expected behaviour would make it plannable",
        },
      ],
    },
    llm: {
      version: "product-2",
      guidance:
        "Think like the person who owns the roadmap. Ask: does this fit what the product's customers need, should it be done now rather than later, and does it set the product apart from competitors? A good task states the problem, who has it, and how we will know it is done (acceptance criteria); a task without them is hard to prioritise and scores lower.",
      rubric: [
        {
          scores: "1-2",
          meaning: "Off-strategy or harmful to the product, or spam / not a task.",
        },
        {
          scores: "3-4",
          meaning: "Low priority or unclear value; no stated problem or acceptance criteria.",
        },
        {
          scores: "5-6",
          meaning:
            "Reasonable but ordinary: some fit with customer needs, priority or differentiation is unclear.",
        },
        {
          scores: "7-8",
          meaning: "Good fit with customer needs and worth doing soon; the problem is clear.",
        },
        {
          scores: "9-10",
          meaning:
            "High priority with clear product-market fit or differentiation, a stated problem and acceptance criteria.",
        },
      ],
    },
  },
  marketing: {
    raises: [
      "something visible to announce or show",
      "growth, launch and audience themes",
      "evidence of demand",
    ],
    lowers: ["defect fixes and internal maintenance"],
    quotes: [["demand", "Who is asking"]],
    evidence: {
      demand: 0.5,
    },
    areas: {
      payments: {
        weight: 1.5,
        why: "makes the product something customers can actually buy",
      },
      pricing: {
        weight: 2,
        why: "gives sales an offer to promote",
      },
      donation: {
        weight: 0.5,
        why: "gives supporters an easier way to help",
      },
      currency: {
        weight: 1,
        why: "supports selling in new regions",
      },
      "visible-ui": {
        weight: 1,
        why: "produces something visible to show",
      },
      "dark-mode": {
        weight: 2,
        why: "is an expected, easy-to-show feature that users notice",
      },
      usability: {
        weight: 1,
        why: "makes the product feel faster and more polished",
      },
      notifications: {
        weight: 1,
        why: "adds a re-engagement channel",
      },
      "growth-marketing": {
        weight: 3.5,
        why: "works directly on reach, acquisition or how the product is presented",
      },
      analytics: {
        weight: 1.5,
        why: "measures campaigns and conversion",
      },
      integration: {
        weight: 1.5,
        why: "gives a 'works with' story that sells",
      },
      enterprise: {
        weight: 1,
        why: "strengthens the pitch to companies",
      },
      "ai-feature": {
        weight: 2,
        why: "is easy to headline while AI features sell",
      },
      "bulk-generation": {
        weight: 0.5,
        why: "promises volume, which is easy to pitch",
      },
      "tech-debt": {
        weight: -0.5,
        why: "is internal work with nothing to announce",
      },
      performance: {
        weight: 1,
        why: "gives a measurable claim to make",
      },
      security: {
        weight: 1,
        why: "supports a trust and privacy message",
      },
      defect: {
        weight: 0.5,
        why: "protects the product's reputation",
      },
      outage: {
        weight: 1.5,
        why: "is the kind of failure that damages the product's reputation",
      },
      "data-loss": {
        weight: 1,
        why: "avoids the kind of incident that damages a reputation",
      },
      "user-demand": {
        weight: 1,
        why: "answers something the market asks for",
      },
      competitive: {
        weight: 2.5,
        why: "sharpens how the product compares to alternatives",
      },
      localization: {
        weight: 2,
        why: "opens new markets",
      },
      documentation: {
        weight: 0.5,
        why: "makes the product easier to adopt",
      },
      collaboration: {
        weight: 1.5,
        why: "gives a team story that spreads the product inside companies",
      },
      audience: {
        weight: 0.5,
        why: "concerns the people the product is sold to",
      },
      "data-portability": {
        weight: 0.5,
        why: "removes a lock-in objection",
      },
      "revenue-claim": {
        weight: 0.25,
        why: "claims a commercial outcome",
      },
      hype: {
        weight: -1,
        why: "is hype, which customers discount",
      },
    },
    kinds: {
      feature: {
        leaning: 0.5,
        angle: "a feature request: something new that could be announced",
      },
      bug: {
        leaning: -0.5,
        angle: "a bug report; fixes are seldom something to announce",
      },
      "bug.crash": {
        leaning: -0.5,
        angle: "a crash; crashes hurt reputation more than fixes help it",
      },
      "bug.data_loss": {
        leaning: 0,
        angle: "a data-loss bug; left alone it becomes a public incident",
      },
      "bug.security": {
        leaning: 0,
        angle: "a security problem; left alone it becomes a public incident",
      },
      "bug.wrong_result": {
        leaning: -0.5,
        angle: "a bug report; fixes are seldom something to announce",
      },
      "bug.cosmetic": {
        leaning: 0,
        angle: "a cosmetic problem; polish matters a little to how the product looks",
      },
      "refactor.removes": {
        leaning: -1,
        angle: "a refactor; there is nothing to announce",
      },
      "refactor.adds": {
        leaning: 0,
        angle: "a shortcut in the code; there is nothing to announce",
      },
      refactor: {
        leaning: -1,
        angle: "a refactor; there is nothing to announce",
      },
      docs: {
        leaning: 0,
        angle: "a documentation task; docs help people adopt the product",
      },
      chore: {
        leaning: -1,
        angle: "maintenance work; there is nothing to announce",
      },
      question: {
        leaning: 0,
        angle: "a question about using the software rather than a request for work",
      },
    },
    voice: {
      nothing: "Nothing {subject} is something to announce.",
      area: "What could be told is {area}",
      mention: "What could be told: the author mentions “{word}”",
      lens: {
        words: [
          "users",
          "people",
          "developers",
          "community",
          "everyone",
          "anyone",
          "teams",
          "customers",
          "beginners",
          "newcomers",
          "audience",
        ],
        say: "For who it is for, the author writes of “{word}”",
      },
      raise: [
        {
          kinds: ["feature"],
          unless: ["demand"],
          say: "who would use it, and how many, would raise my score",
        },
      ],
    },
    llm: {
      version: "marketing-2",
      guidance:
        "Think like the person who must announce and sell the result. Ask: could we put this in a release note, a landing page or a sales call? Does it give us something competitors lack, open a new audience, or remove an objection buyers raise? Internal work nobody outside sees scores low from your angle; spammy or misleading promotion scores lowest.",
      rubric: [
        {
          scores: "1-2",
          meaning:
            "Nothing to market, or it would hurt the brand (spam, misleading claims); not a real task.",
        },
        {
          scores: "3-4",
          meaning: "Invisible to buyers; at most a footnote in a changelog.",
        },
        {
          scores: "5-6",
          meaning: "Something to mention, but it is table stakes and gives no edge over competitors.",
        },
        {
          scores: "7-8",
          meaning: "A clear selling point or a removed buying objection that sales and marketing can use.",
        },
        {
          scores: "9-10",
          meaning: "A headline feature with real competitive advantage or a new audience to sell to.",
        },
      ],
    },
  },
};
