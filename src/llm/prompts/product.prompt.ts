import type { PersonaPrompt } from "./persona-prompt.js";

export const productPrompt: PersonaPrompt = {
  persona: "product",
  version: "product-2",
  guidance: `Think like the person who owns the roadmap. Ask: does this fit what the product's customers need, should it be done now rather than later, and does it set the product apart from competitors? A good task states the problem, who has it, and how we will know it is done (acceptance criteria); a task without them is hard to prioritise and scores lower.`,
  rubric: [
    { scores: "1-2", meaning: "Off-strategy or harmful to the product, or spam / not a task." },
    { scores: "3-4", meaning: "Low priority or unclear value; no stated problem or acceptance criteria." },
    {
      scores: "5-6",
      meaning:
        "Reasonable but ordinary: some fit with customer needs, priority or differentiation is unclear.",
    },
    { scores: "7-8", meaning: "Good fit with customer needs and worth doing soon; the problem is clear." },
    {
      scores: "9-10",
      meaning:
        "High priority with clear product-market fit or differentiation, a stated problem and acceptance criteria.",
    },
  ],
};
