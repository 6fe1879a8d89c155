import { describe, expect, it } from "@jest/globals";
import { deadlineFailure, startReportBudget } from "../../src/llm/report-budget.js";

describe("startReportBudget", () => {
  it("aborts at the deadline and says the budget expired", async () => {
    const { budget, end } = startReportBudget(30);
    expect(budget.signal.aborted).toBe(false);
    expect(budget.expired()).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(budget.signal.aborted).toBe(true);
    expect(budget.expired()).toBe(true);
    end();
  });

  it("aborts when the caller gives up, without the budget having expired", () => {
    const caller = new AbortController();
    const { budget, end } = startReportBudget(10_000, caller.signal);
    caller.abort();
    expect(budget.signal.aborted).toBe(true);
    expect(budget.expired()).toBe(false);
    end();
  });

  it("after end(), neither the timer nor the caller aborts it", async () => {
    const caller = new AbortController();
    const { budget, end } = startReportBudget(20, caller.signal);
    end();
    caller.abort();
    await new Promise((r) => setTimeout(r, 40));
    expect(budget.signal.aborted).toBe(false);
    // The clock still says the deadline has passed.
    expect(budget.expired()).toBe(true);
  });

  it("a deadline failure names the model and the budget, and is final", () => {
    const { budget, end } = startReportBudget(2_500);
    end();
    expect(deadlineFailure("gpt-x", budget)).toEqual({
      kind: "timeout",
      retryable: false,
      tryOtherModel: false,
      what: "The model gpt-x did not answer within the report's deadline of 2.5 s",
      advice: "try again later",
    });
  });
});
