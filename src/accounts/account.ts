import { isPlanId, type PlanId } from "../core/plans.js";

/** An account: who holds keys and a plan (read by the store, charged by `charge-task`). */
export interface Account {
  id: string;
  name: string;
  plan: PlanId;
  githubLogin: string | null;
}

/** A row of `accounts` as an account (an unknown plan reads as free). */
export function toAccount(row: {
  id: string;
  name: string;
  plan: string;
  github_login: string | null;
}): Account {
  return {
    id: row.id,
    name: row.name,
    plan: isPlanId(row.plan) ? row.plan : "free",
    githubLogin: row.github_login,
  };
}
