import type { PersonaPrompt } from "./persona-prompt.js";

export const marketingPrompt: PersonaPrompt = {
  persona: "marketing",
  version: "marketing-2",
  guidance: `Think like the person who must announce and sell the result. Ask: could we put this in a release note, a landing page or a sales call? Does it give us something competitors lack, open a new audience, or remove an objection buyers raise? Internal work nobody outside sees scores low from your angle; spammy or misleading promotion scores lowest.`,
  rubric: [
    {
      scores: "1-2",
      meaning: "Nothing to market, or it would hurt the brand (spam, misleading claims); not a real task.",
    },
    { scores: "3-4", meaning: "Invisible to buyers; at most a footnote in a changelog." },
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
};
