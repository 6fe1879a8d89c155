import { sql } from "kysely";
import { calibrationUsed, type RepositoryCalibration } from "../core/offline/calibration.js";
import { KIND_MODEL } from "../core/offline/kind-model.data.js";
import { adjustmentFor } from "../core/offline/kind-model.js";
import { repositoryKey } from "../backlog/backfill-queue-store.js";
import type { Db } from "../storage/tables.js";
import type { LearningResult } from "./learning-options.js";
import type { KindLabelNames } from "../github/kind-labels.js";

/** How long an instance trusts its cached calibration before asking the database for the version again. */
const CHECK_MS = 2_000;
/** Repositories whose calibration an instance keeps in memory; the least recently used goes first. */
export const CALIBRATIONS_KEPT = 5_000;

interface Cached {
  version: number;
  checkedAt: number;
  calibration: RepositoryCalibration | undefined;
  /** The repository's own label name per kind, learned from its closed issues (for kind labels). */
  labelNames: KindLabelNames | undefined;
}

/**
 * What was learned from each repository's closed issues (migrations/009), shared by every instance of a fleet
 * through the database. Each instance keeps the calibrations it uses in memory and reloads one when its
 * version changes (checked at most every 2 s per repository: one indexed read of an integer).
 */
export class CalibrationStore {
  /** Bounded: an instance of a fleet may see webhooks from any number of repositories. */
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly kept = CALIBRATIONS_KEPT,
  ) {}

  /** Repositories held in memory now (at most `kept`). */
  get cachedRepositories(): number {
    return this.cache.size;
  }

  private remember(key: string, entry: Cached): Cached {
    this.cache.delete(key);
    this.cache.set(key, entry);
    while (this.cache.size > this.kept) this.cache.delete(this.cache.keys().next().value!);
    return entry;
  }

  /**
   * Store a learning run's result. The version (what instances reload on, and what caches key on) moves only
   * when what reports or kind labels use changed: whether an adjustment is used, the adjustment itself, or the
   * label names. `changed` says whether the backlog needs scoring again (a weekly re-learning that found
   * nothing new re-scores nothing).
   */
  async save(displayName: string, result: LearningResult): Promise<{ version: number; changed: boolean }> {
    const used = !!(result.calibration.kind || result.calibration.acceptance);
    const key = repositoryKey(displayName);
    const row = await sql<{ version: number; old_version: number | null }>`
      WITH old AS (SELECT version FROM repository_calibrations WHERE repository = ${key})
      INSERT INTO repository_calibrations
        (repository, display_name, version, closed_issues, labelled, decided, used, calibration, decisions, learned_at)
      VALUES (${key}, ${displayName}, 1, ${result.calibration.closedIssues},
        ${result.labelled}, ${result.decided}, ${used}, ${JSON.stringify(result.calibration)},
        ${JSON.stringify({ kind: result.kind, acceptance: result.acceptance, labelNames: result.labelNames })}, now())
      ON CONFLICT (repository) DO UPDATE SET
        display_name = excluded.display_name,
        version = CASE
          WHEN repository_calibrations.used = excluded.used
            AND (NOT excluded.used OR repository_calibrations.calibration = excluded.calibration)
            AND (repository_calibrations.decisions::jsonb -> 'labelNames')
              IS NOT DISTINCT FROM (excluded.decisions::jsonb -> 'labelNames')
          THEN repository_calibrations.version
          ELSE repository_calibrations.version + 1 END,
        closed_issues = excluded.closed_issues,
        labelled = excluded.labelled,
        decided = excluded.decided,
        used = excluded.used,
        calibration = excluded.calibration,
        decisions = excluded.decisions,
        learned_at = now()
      RETURNING version, (SELECT version FROM old) AS old_version`.execute(this.db);
    this.cache.delete(key);
    const { version, old_version } = row.rows[0]!;
    return {
      version: Number(version),
      changed: old_version === null || Number(old_version) !== Number(version),
    };
  }

  /** The calibration to score this repository's issues with: undefined when none was learned or none won. */
  async get(repository: string): Promise<RepositoryCalibration | undefined> {
    return (await this.entry(repository)).calibration;
  }

  /**
   * The repository's own label names per kind ("Type: Bug" for bug), once learned, whether or not an
   * adjustment won: kind labels then use the names its maintainers already use.
   */
  async labelNames(repository: string): Promise<KindLabelNames | undefined> {
    return (await this.entry(repository)).labelNames;
  }

  private async entry(repository: string): Promise<Cached> {
    const key = repositoryKey(repository);
    const cached = this.cache.get(key);
    const now = this.now();
    if (cached && now - cached.checkedAt < CHECK_MS) return this.remember(key, cached);
    const v = await this.db
      .selectFrom("repository_calibrations")
      .select(["version"])
      .where("repository", "=", key)
      .executeTakeFirst();
    if (!v) {
      return this.remember(key, {
        version: 0,
        checkedAt: now,
        calibration: undefined,
        labelNames: undefined,
      });
    }
    const version = Number(v.version);
    if (cached && cached.version === version) {
      cached.checkedAt = now;
      return this.remember(key, cached);
    }
    const row = await this.db
      .selectFrom("repository_calibrations")
      .select(["version", "used", "calibration", "decisions"])
      .where("repository", "=", key)
      .executeTakeFirstOrThrow();
    const calibration = row.used
      ? current({ ...(JSON.parse(row.calibration) as RepositoryCalibration), version: Number(row.version) })
      : undefined;
    const learned = (JSON.parse(row.decisions) as { labelNames?: KindLabelNames }).labelNames;
    const entry = {
      version: Number(row.version),
      checkedAt: now,
      calibration,
      labelNames: learned && Object.keys(learned).length > 0 ? learned : undefined,
    };
    return this.remember(key, entry);
  }
}

/**
 * A kind adjustment learned against an earlier release's kind model means nothing added to this one's: it is
 * dropped (the shipped model reads alone, and the report no longer says the kind was learned) until the next
 * learning (weekly, or `/score learn`) fits one against this model.
 */
function current(c: RepositoryCalibration): RepositoryCalibration | undefined {
  const kind = adjustmentFor(KIND_MODEL, c.kind);
  const fresh = { ...c, kind };
  return calibrationUsed(fresh) ? fresh : undefined;
}
