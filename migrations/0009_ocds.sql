-- Open Contracting (src/ocds): one release per contracting process, kept ready like the other documents.
-- A process is a bidding (direct contract or public call), or a contract or ARP that names no bidding.
-- `tail` is the release's JSON after its ocid (`"id":...}`): the ocid's prefix is configuration
-- (OCDS_PREFIX), joined on output. `hash` is of the content: when a rebuild finds it unchanged, the
-- release keeps its id and date, so `date` is when the published content last changed.
CREATE TABLE IF NOT EXISTS ocds_releases (
  process_id       uuid PRIMARY KEY,
  process_kind     text NOT NULL CHECK (process_kind IN ('bidding', 'contract', 'arp')),
  organization_id  uuid NOT NULL,
  hash             text NOT NULL,
  date             timestamptz NOT NULL,
  tail             text NOT NULL
);
CREATE INDEX IF NOT EXISTS ocds_releases_date ON ocds_releases (date DESC, process_id);
CREATE INDEX IF NOT EXISTS ocds_releases_organization_date ON ocds_releases (organization_id, date DESC, process_id);
