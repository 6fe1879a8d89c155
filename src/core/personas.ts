/**
 * The five personas, in the order the specification lists them. The order is part of the
 * contract: `expertScores` is always emitted in this order.
 */
export const PERSONAS = [
  {
    id: "revenue",
    expert: "Revenue Expert",
    icon: "\u{1F4BC}",
    angle: "Whether the task enables payment, improves pricing strategy or creates revenue opportunities.",
  },
  {
    id: "architect",
    expert: "Technical Architect",
    // U+1F3D7 U+FE0F: the variation selector makes it render as an emoji, and the contract pins it.
    icon: "\u{1F3D7}\u{FE0F}",
    angle:
      "Code quality, technical debt, and whether the work is integration work as opposed to bulk generation.",
  },
  {
    id: "ux",
    expert: "UX Designer",
    icon: "\u{1F3A8}",
    angle: "Whether users will see and use the feature, and whether it solves real user problems.",
  },
  {
    id: "product",
    expert: "Product Manager",
    icon: "\u{1F4CA}",
    angle: "Product-market fit, feature priority, competitive differentiation.",
  },
  {
    id: "marketing",
    expert: "Marketing Strategist",
    icon: "\u{1F4E2}",
    angle: "Whether the feature is marketable and sellable, and whether it gives competitive advantage.",
  },
] as const;

export type Persona = (typeof PERSONAS)[number];
export type PersonaId = Persona["id"];
export type ExpertName = Persona["expert"];

export const PERSONA_IDS = PERSONAS.map((p) => p.id) as readonly PersonaId[];
export const EXPERT_NAMES = PERSONAS.map((p) => p.expert) as unknown as readonly [
  ExpertName,
  ...ExpertName[],
];

export function personaById(id: PersonaId): Persona {
  const persona = PERSONAS.find((p) => p.id === id);
  if (!persona) throw new Error(`unknown persona ${id}`);
  return persona;
}
