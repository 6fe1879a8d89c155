import type { PersonaId } from "../personas.js";
import type { TaskKind, Severity } from "./read-structure.js";

/**
 * How each persona leans, as data. The fitted model sets the consensus (the average); these leanings only
 * spread the five scores around it, each persona by its own angle, and are re-centred so that they add
 * nothing to the average. They are stated, not fitted: the labeled set says whether maintainers accepted
 * a task, not which expert would have liked it.
 */
export type Shape = TaskKind | `bug.${Severity}` | "refactor.removes" | "refactor.adds";

type Lean = Record<PersonaId, number>;
const lean = (revenue: number, architect: number, ux: number, product: number, marketing: number): Lean => ({
  revenue,
  architect,
  ux,
  product,
  marketing,
});

export const KIND_LEANING: Partial<Record<Shape, Lean>> = {
  feature: lean(0, 0, 0.5, 0.5, 0.5),
  bug: lean(-0.5, 0.5, 0.5, 0.5, -0.5),
  "bug.crash": lean(0, 0.5, 1, 0.5, -0.5),
  "bug.data_loss": lean(0.5, 0.5, 0.5, 0.5, 0),
  "bug.security": lean(0.5, 1, 0, 0.5, 0),
  "bug.wrong_result": lean(0, 0.5, 0.5, 0.5, -0.5),
  "bug.cosmetic": lean(-1, -0.5, 1, 0, 0),
  "refactor.removes": lean(-1, 1.5, -0.5, 0, -1),
  "refactor.adds": lean(0, -1.5, 0, 0, 0),
  refactor: lean(-1, 1.5, -0.5, 0, -1),
  docs: lean(-1, 0, 0.5, 0.5, 0),
  chore: lean(-1, 1.5, -0.5, 0, -1),
  question: lean(0, 0, 0, -0.5, 0),
};

/** What each persona says about each kind of task: completes "The title reads as …" with its angle. */
export const KIND_ANGLE: Record<Exclude<Shape, "junk" | "ping">, Record<PersonaId, string>> = {
  feature: {
    revenue: "a feature request; new capability pays off only if it wins or keeps paying users",
    architect: "a feature request: new code to design, build and maintain",
    ux: "a feature request: something new for people to find and use",
    product: "a feature request, to weigh against the rest of the roadmap",
    marketing: "a feature request: something new that could be announced",
  },
  bug: {
    revenue: "a bug report; defects cost trust more than they cost revenue directly",
    architect: "a bug report: a defect to find and fix at its root",
    ux: "a bug report: something does not work the way people expect",
    product: "a bug report: broken behaviour ranks ahead of new work",
    marketing: "a bug report; fixes are seldom something to announce",
  },
  "bug.crash": {
    revenue: "a crash; crashes drive users away",
    architect: "a crash: a hard failure to find and fix at its root",
    ux: "a crash: the worst experience software can give",
    product: "a crash, which ranks ahead of new work",
    marketing: "a crash; crashes hurt reputation more than fixes help it",
  },
  "bug.data_loss": {
    revenue: "a data-loss bug; losing users' data loses customers",
    architect: "a data-loss bug: the most serious kind of defect",
    ux: "a data-loss bug: nothing erodes trust faster",
    product: "a data-loss bug, which ranks ahead of everything else",
    marketing: "a data-loss bug; left alone it becomes a public incident",
  },
  "bug.security": {
    revenue: "a security problem; a breach costs customers and contracts",
    architect: "a security problem: it has to be fixed properly, not patched over",
    ux: "a security problem: users trust the product to keep them safe",
    product: "a security problem, which ranks ahead of new work",
    marketing: "a security problem; left alone it becomes a public incident",
  },
  "bug.wrong_result": {
    revenue: "a bug report about wrong or missing behaviour; errors cost trust",
    architect: "a bug report about wrong or missing behaviour: a defect to fix at its root",
    ux: "a bug report: something does not work the way people expect",
    product: "a bug report: broken behaviour ranks ahead of new work",
    marketing: "a bug report; fixes are seldom something to announce",
  },
  "bug.cosmetic": {
    revenue: "a cosmetic problem, with no revenue at stake",
    architect: "a cosmetic problem: small, low-risk work",
    ux: "a cosmetic problem: small, but people see it",
    product: "a cosmetic problem: worth doing when it is cheap",
    marketing: "a cosmetic problem; polish matters a little to how the product looks",
  },
  "refactor.removes": {
    revenue: "a refactor; customers will not see it",
    architect: "a refactor that pays down technical debt",
    ux: "a refactor; users will not see it",
    product: "a refactor: an investment in speed of later work",
    marketing: "a refactor; there is nothing to announce",
  },
  "refactor.adds": {
    revenue: "a shortcut in the code; customers will not see it",
    architect: "a change that adds technical debt rather than paying it down",
    ux: "a shortcut in the code; users will not see it",
    product: "a shortcut that later work will pay for",
    marketing: "a shortcut in the code; there is nothing to announce",
  },
  refactor: {
    revenue: "a refactor; customers will not see it",
    architect: "a refactor of existing code",
    ux: "a refactor; users will not see it",
    product: "a refactor: an investment in speed of later work",
    marketing: "a refactor; there is nothing to announce",
  },
  docs: {
    revenue: "a documentation task, with little revenue at stake",
    architect: "a documentation task: low-risk work",
    ux: "a documentation task: good docs are part of the experience",
    product: "a documentation task: cheap, and it helps users succeed",
    marketing: "a documentation task; docs help people adopt the product",
  },
  chore: {
    revenue: "maintenance work (dependencies, releases, CI); customers will not see it",
    architect: "maintenance work (dependencies, releases, CI) that keeps the project healthy",
    ux: "maintenance work; users will not see it directly",
    product: "maintenance work: it keeps the project shippable",
    marketing: "maintenance work; there is nothing to announce",
  },
  question: {
    revenue: "a question about using the software rather than a request for work",
    architect: "a question about using the software rather than a request for work",
    ux: "a question about using the software; it may point at unclear docs or design",
    product: "a support question rather than a request for work",
    marketing: "a question about using the software rather than a request for work",
  },
};

/** Sentences for tasks that are not work at all. */
export const JUNK_SENTENCE: Record<string, string> = {
  advertising: "This reads as spam or advertising, not a development task",
  accident_or_test: "The text says this was filed by mistake or as a test",
  no_title: "The title has no words that say what the work is",
  one_word_title:
    "A one-word title with almost nothing of the author's own beneath it does not say what the work is",
  placeholder_title: "The title is still a template placeholder",
  unfilled_template:
    "The description is an unfilled issue template: headings and prompts with nothing of the author's own beneath them",
  no_content: "There is almost no text to act on",
  tracker_note: "This is a note about the tracker itself rather than work to do",
  ping: "This asks about status rather than describing work to do",
};
