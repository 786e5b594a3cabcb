-- Each transparency record's listing item (the detail's own fields and the listing's extras, without
-- relations) as ready JSON beside its detail, so that a listing page joins the ids its index finds to their
-- items instead of building each item's JSON from a dozen joined tables on every new page. The read model
-- (src/readmodel/build.ts) fills it: the version of its SQL changes with this column, so `migrate` rebuilds
-- the documents already stored.
ALTER TABLE detail_documents ADD COLUMN IF NOT EXISTS item text;
