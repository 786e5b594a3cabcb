-- The read model: every order and every transparency detail as a ready JSON document, so that a lookup
-- reads one row by its key instead of joining a dozen tables. The import rebuilds the documents of every
-- organization it touches in its own transaction; `migrate` builds them for data already stored.

CREATE TABLE order_documents (
  organization_id  uuid NOT NULL,
  number           text NOT NULL,
  body             text NOT NULL,
  PRIMARY KEY (organization_id, number)
);

CREATE TABLE detail_documents (
  resource         text NOT NULL,
  id               uuid NOT NULL,
  organization_id  uuid NOT NULL,
  body             text NOT NULL,
  PRIMARY KEY (resource, id)
);
CREATE INDEX detail_documents_organization ON detail_documents (organization_id);

-- Bumped by every import; instances also hear of it through NOTIFY compras_data and drop their caches.
CREATE TABLE data_version (
  single   boolean PRIMARY KEY DEFAULT true CHECK (single),
  version  bigint NOT NULL
);
INSERT INTO data_version (version) VALUES (0);
