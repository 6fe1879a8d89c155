-- A score_cache row with no verdicts yet is a claim: one instance is scoring this input, and the others
-- wait for its verdicts instead of scoring it again (single-flight across the fleet).
ALTER TABLE score_cache ALTER COLUMN verdicts DROP NOT NULL;
