-- The listings' default order is newest first with empty dates last and the id, descending too, as the
-- tiebreaker ("date DESC NULLS LAST, id DESC"). These indexes have exactly that order, so a page is read
-- off the index instead of sorting every row; the ones they replace sorted nulls first and ids ascending.
DROP INDEX contracts_start, contracts_organization_start, arps_signature, arps_organization_signature,
  biddings_kind_opening, biddings_organization_kind_opening;
CREATE INDEX contracts_start ON contracts (date_start DESC NULLS LAST, id DESC);
CREATE INDEX contracts_organization_start ON contracts (organization_id, date_start DESC NULLS LAST, id DESC);
CREATE INDEX arps_signature ON arps (date_signature DESC NULLS LAST, id DESC);
CREATE INDEX arps_organization_signature ON arps (organization_id, date_signature DESC NULLS LAST, id DESC);
CREATE INDEX biddings_kind_opening ON biddings (kind, opening_date DESC NULLS LAST, id DESC);
CREATE INDEX biddings_organization_kind_opening ON biddings (organization_id, kind, opening_date DESC NULLS LAST, id DESC);
-- Listing an organization's records of one modality is the commonest filtered page: count and page read
-- only those rows.
CREATE INDEX contracts_organization_modality ON contracts (organization_id, modality_id);
CREATE INDEX arps_organization_modality ON arps (organization_id, modality_id);
CREATE INDEX biddings_organization_modality ON biddings (organization_id, kind, modality_id);
