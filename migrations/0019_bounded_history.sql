-- History that costs what it changed (src/readmodel/log.ts, src/history/history.ts). Each updated entry
-- keeps what changed from the version before, named for people (`changes`), made once by the import, so a
-- history is read without rebuilding any version; and every sixteenth version is kept whole among the reverse
-- patches (a checkpoint), so a version is rebuilt from at most fifteen patches. The entries written before
-- get their differences once, when `migrate` or `serve` next runs (syncReadModel).
--
-- An entry may tell the feed that a record's document changed without making a version of its history
-- (`in_history` false): a record moved to another organization with nothing else changed, or an update whose
-- only change was a record withdrawn since (erased from every version). A record that moved keeps the
-- organization it left (`previous_organization_id`), for the feeds filtered by organization.
SELECT pg_advisory_xact_lock(7310002);

ALTER TABLE public_changes
  ADD COLUMN IF NOT EXISTS changes text,
  ADD COLUMN IF NOT EXISTS in_history boolean NOT NULL DEFAULT true,
  ADD COLUMN IF NOT EXISTS previous_organization_id uuid;
CREATE INDEX IF NOT EXISTS public_changes_previous_organization ON public_changes (previous_organization_id, seq)
  WHERE previous_organization_id IS NOT NULL;

-- The entries whose differences are still to be made (none once syncReadModel has run).
CREATE INDEX IF NOT EXISTS public_changes_without_differences ON public_changes (resource, id)
  WHERE change = 'updated' AND in_history AND changes IS NULL;
