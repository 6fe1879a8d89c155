import { describe, expect, it } from "@jest/globals";
import { learnCalibration } from "../../src/learning/fit-calibration.js";
import { LEARNING, type ClosedIssue } from "../../src/learning/learning-options.js";
import { readReading } from "../../src/core/offline/read-reading.js";
import { scoreTask } from "../../src/core/score-task.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { KIND_MODEL } from "../../src/core/offline/kind-model.data.js";
import { kindModelId } from "../../src/core/offline/kind-model.js";
import { CalibrationStore } from "../../src/learning/calibration-store.js";
import { openDatabase } from "../../src/storage/database.js";

/** Made-up history: a "wobble" is a bug here, a "twiddle" a request, a "setup" a support question. */
const WORDS = { bug: "wobble", feature: "twiddle", question: "setup" } as const;
const LABELS = { bug: "Type: Bug", feature: "feature-request", question: "type:support" } as const;
const KINDS = ["bug", "feature", "question"] as const;
const PARTS = ["rotor", "hinge", "spindle", "lever", "valve", "gasket", "sprocket"];
function closed(n: number): ClosedIssue[] {
  return Array.from({ length: n }, (_, i) => {
    const kind = KINDS[i % 3]!;
    const part = PARTS[i % PARTS.length]!;
    return {
      number: i + 1,
      title: `${part} ${WORDS[kind]} on the gizmo`,
      body: `A ${part} ${WORDS[kind]} on the gizmo.`,
      labels: [LABELS[kind]],
      stateReason: kind === "question" ? "not_planned" : "completed",
    };
  });
}

describe("learning from a repository's closed issues", () => {
  it("fits a kind adjustment that beats the shipped model, and the reader states it", () => {
    const result = learnCalibration("acme/gizmo", closed(60));
    expect(result.labelled).toBe(60);
    expect(result.kind.kept).toBe(true);
    expect(result.kind.adjusted!).toBeGreaterThan(result.kind.shipped!);
    const shipped = readReading("latch twiddle on the gizmo", "A latch twiddle on the gizmo.");
    const learned = readReading(
      "latch twiddle on the gizmo",
      "A latch twiddle on the gizmo.",
      undefined,
      undefined,
      result.calibration,
    );
    expect(shipped.calibration).toBeNull();
    expect(learned.kind).toBe("feature");
    expect(learned.calibration).toEqual({ repository: "acme/gizmo", closedIssues: 60 });
  });

  it("is deterministic: the same issues give the same adjustment", () => {
    expect(learnCalibration("acme/gizmo", closed(45))).toEqual(learnCalibration("acme/gizmo", closed(45)));
  });

  it("too little history keeps the shipped model and says why", () => {
    const result = learnCalibration("acme/gizmo", closed(LEARNING.minKindExamples - 1));
    expect(result.calibration.kind).toBeUndefined();
    expect(result.calibration.acceptance).toBeUndefined();
    expect(result.kind.reason).toMatch(/29 closed issues with a kind label; 30 needed/);
    expect(result.acceptance.reason).toMatch(/30 needed/);
  });

  it("a report scored with the calibration says so in reading.calibration", async () => {
    const { calibration } = learnCalibration("acme/gizmo", closed(60));
    const { report } = await scoreTask(
      { task: "latch setup on the gizmo", description: "A latch setup on the gizmo." },
      { scorer: offlineScorer, calibration },
    );
    expect(report.reading.calibration).toEqual({ repository: "acme/gizmo", closedIssues: 60 });
    expect(report.reading.kind).toBe("question");
  });
});

describe("an adjustment learned against another release's kind model", () => {
  it("is not applied, and the report no longer says the kind was learned", () => {
    const { calibration } = learnCalibration("acme/gizmo", closed(60));
    const stale = {
      ...calibration,
      acceptance: undefined,
      kind: { ...calibration.kind!, model: "k131072-0" },
    };
    const read = readReading(
      "latch twiddle on the gizmo",
      "A latch twiddle on the gizmo.",
      undefined,
      undefined,
      stale,
    );
    const shipped = readReading("latch twiddle on the gizmo", "A latch twiddle on the gizmo.");
    expect(read.kind).toBe(shipped.kind);
    expect(read.kindConfidence).toBe(shipped.kindConfidence);
    expect(read.calibration).toBeNull();
  });

  it("is dropped when a stored calibration is loaded: the repository reads with the shipped model until it learns again", async () => {
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      const store = new CalibrationStore(database.db, Date.now);
      const result = learnCalibration("acme/gizmo", closed(60));
      expect(result.calibration.kind?.model).toBe(kindModelId(KIND_MODEL));
      await store.save("acme/gizmo", result);
      expect((await store.get("acme/gizmo"))?.kind).toBeDefined();
      const stale = {
        ...result.calibration,
        acceptance: undefined,
        kind: { ...result.calibration.kind!, model: "k131072-0" },
      };
      await store.save("acme/gizmo", { ...result, calibration: stale });
      expect(await store.get("acme/gizmo")).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
