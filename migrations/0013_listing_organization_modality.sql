-- An organization's records of one modality, newest first, is the commonest filtered page (0005). Its
-- indexes now carry the listings' default order after the filter's columns, so that the page's ids and its
-- count are read off the index alone, neither touching the table nor sorting (src/listings/listing.ts
-- leaves out of those statements the joins they do not read, which would prevent it). On the benchmark's
-- large dataset the ids and count of a page of contracts by organization and modality read 8 buffers against
-- about 30, and a new page, count included, took 0.35-0.50 ms one after another (median 0.44) against
-- 0.42-0.83 ms (median 0.53), 3,000 pages in each of eight alternated runs.
DROP INDEX contracts_organization_modality, arps_organization_modality, biddings_organization_modality;
CREATE INDEX contracts_organization_modality ON contracts
  (organization_id, modality_id, date_start DESC NULLS LAST, id DESC);
CREATE INDEX arps_organization_modality ON arps
  (organization_id, modality_id, date_signature DESC NULLS LAST, id DESC);
CREATE INDEX biddings_organization_modality ON biddings
  (organization_id, kind, modality_id, opening_date DESC NULLS LAST, id DESC);
