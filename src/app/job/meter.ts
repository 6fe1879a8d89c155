/**
 * Step 4, meter: one task of the account's allowance is held before the model is asked (as REST does), so
 * parallel jobs of one account score no more reports than it has left; a push-only job counts nothing, so it
 * only checks. The hold is charged once the report exists, or given back when scoring fails.
 */
import type { AppHold, AppMetering } from "../../accounts/app-metering.js";
import type { ScoreReport } from "../../core/score-report.schema.js";

export interface Metered {
  /** False: a Free account over its allowance gets a note in place of a report. */
  allowed: boolean;
  held: AppHold | undefined;
}

export async function meter(
  metering: AppMetering | undefined,
  account: string,
  pushOnly: boolean,
): Promise<Metered> {
  if (!metering) return { allowed: true, held: undefined };
  if (pushOnly) return { allowed: await metering.hasAllowance(account), held: undefined };
  const held = await metering.hold(account);
  return { allowed: !!held, held };
}

/** Scoring failed: the held task is given back. */
export async function release(metering: AppMetering | undefined, metered: Metered): Promise<void> {
  if (metering && metered.held) await metering.release(metered.held);
}

/**
 * Counted once per delivery (a redelivery is the same task, and gives its hold back), on the task held.
 * False when the account went over its allowance meanwhile.
 */
export async function charge(
  metering: AppMetering | undefined,
  metered: Metered,
  account: string,
  deliveryId: string,
  report: ScoreReport,
): Promise<boolean> {
  if (!metering || !metered.held) return true;
  return (await metering.charge(account, deliveryId, report, metered.held)) !== "over_allowance";
}
