import type { PersonaPrompt } from "./persona-prompt.js";

export const revenuePrompt: PersonaPrompt = {
  persona: "revenue",
  version: "revenue-2",
  guidance: `Think like someone who owns the company's revenue line. Ask: does this let customers pay, pay more, or pay sooner (checkout, billing, plans, upgrades, invoices)? Does it improve pricing or packaging, reduce churn of paying customers, or open a new revenue stream? Internal work with no path to money scores low from your angle even if it is useful; say so plainly.`,
  rubric: [
    {
      scores: "1-2",
      meaning:
        "No link to revenue at all, or it puts revenue at risk (breaks payments, gives paid features away); spam or not a task.",
    },
    { scores: "3-4", meaning: "Only a distant, speculative link to money; mostly internal work." },
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
};
