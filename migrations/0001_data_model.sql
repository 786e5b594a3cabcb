-- The platform's procurement data. Money is numeric (exact), timestamps keep microseconds,
-- a person's CPF is stored whole and masked only on output.

CREATE TABLE organizations (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  document    text NOT NULL CHECK (document ~ '^[0-9]{14}$'),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE units (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id  uuid NOT NULL REFERENCES organizations (id),
  name             text NOT NULL,
  name_short       text NOT NULL,
  UNIQUE (organization_id, name, name_short)
);

-- One row per tax document; the last imported record wins for name and representative.
CREATE TABLE suppliers (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document             text NOT NULL UNIQUE CHECK (document ~ '^([0-9]{11}|[0-9]{14})$'),
  name                 text NOT NULL,
  representative_name  text
);

-- Lookup tables: ids are stable and public (the listings' filters take them).
CREATE TABLE bidding_modalities (id smallint PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE bidding_statuses (id smallint PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE management_statuses (id smallint PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE order_statuses (id smallint PRIMARY KEY, name text NOT NULL UNIQUE);

INSERT INTO bidding_modalities (id, name) VALUES
  (1, 'Adesão'),
  (2, 'Pregão Eletrônico'),
  (3, 'Pregão Presencial'),
  (4, 'Tomada de Preço'),
  (5, 'Concorrência - Presencial'),
  (6, 'Chamamento Público'),
  (7, 'Carta Convite'),
  (8, 'Dispensa sem Disputa'),
  (9, 'Inexigibilidade'),
  (10, 'Leilão Presencial'),
  (11, 'Regime Diferenciado de Contratação'),
  (12, 'Dispensa Eletrônica'),
  (13, 'Diálogo Competitivo'),
  (14, 'Procedimento da Lei 13.393/2016'),
  (15, 'Concurso'),
  (16, 'Concorrência - Eletrônica'),
  (17, 'Manifestação de Interesse'),
  (18, 'Pré-Qualificação'),
  (19, 'Credenciamento'),
  (20, 'Leilão Eletrônico');

INSERT INTO bidding_statuses (id, name) VALUES
  (1, 'Publicado'),
  (2, 'Em disputa'),
  (3, 'Em julgamento'),
  (4, 'Em habilitação'),
  (5, 'Em recurso'),
  (6, 'Adjudicado'),
  (7, 'Homologado'),
  (8, 'Suspenso'),
  (9, 'Revogado'),
  (10, 'Anulado'),
  (11, 'Deserto'),
  (12, 'Fracassado'),
  (13, 'Cancelado'),
  (14, 'Concluído');

INSERT INTO management_statuses (id, name) VALUES
  (1, 'Aguardando assinatura'),
  (2, 'Vigente'),
  (3, 'Suspenso'),
  (4, 'Encerrado'),
  (5, 'Rescindido'),
  (6, 'Cancelado');

INSERT INTO order_statuses (id, name) VALUES
  (1, 'Emitida'),
  (2, 'Recebido total'),
  (3, 'Recebido parcialmente'),
  (4, 'Recebido provisoriamente');

-- Direct contracts and public calls share one shape (spec 2.8).
CREATE TABLE biddings (
  id                       uuid PRIMARY KEY,
  organization_id          uuid NOT NULL REFERENCES organizations (id),
  kind                     text NOT NULL CHECK (kind IN ('direct_contract', 'public_call')),
  number                   text NOT NULL,
  modality_id              smallint NOT NULL REFERENCES bidding_modalities (id),
  budget_secret            boolean NOT NULL,
  status_id                smallint NOT NULL REFERENCES bidding_statuses (id),
  register_price           boolean NOT NULL,
  opening_date             timestamptz,
  object_details           text NOT NULL,
  company_name             text NOT NULL,
  electronic_dispute_mode  text,
  adjudication_mode        text,
  judgment_criteria        text,
  competent_authority      text,
  agent                    text,
  type_range_bids          text,
  range_bids               text,
  sum_amount_total         numeric NOT NULL,
  precision                integer NOT NULL,
  sum_amount_total_finish  numeric,
  updated_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX biddings_organization_kind_opening ON biddings (organization_id, kind, opening_date DESC, id);
CREATE INDEX biddings_kind_opening ON biddings (kind, opening_date DESC, id);
CREATE INDEX biddings_number ON biddings (number);
CREATE INDEX biddings_modality ON biddings (modality_id);
CREATE INDEX biddings_status ON biddings (status_id);

CREATE TABLE bidding_providers (
  bidding_id   uuid NOT NULL REFERENCES biddings (id) ON DELETE CASCADE,
  position     smallint NOT NULL,
  supplier_id          bigint NOT NULL REFERENCES suppliers (id),
  representative_name  text,
  PRIMARY KEY (bidding_id, position)
);
CREATE INDEX bidding_providers_supplier ON bidding_providers (supplier_id);

CREATE TABLE arps (
  id                    uuid PRIMARY KEY,
  organization_id       uuid NOT NULL REFERENCES organizations (id),
  number                text NOT NULL,
  bidding_id            uuid REFERENCES biddings (id),
  object_details        text NOT NULL,
  amount_total          numeric NOT NULL,
  company_name          text NOT NULL,
  supplier_id           bigint NOT NULL REFERENCES suppliers (id),
  representative_name   text NOT NULL,
  modality_id           smallint NOT NULL REFERENCES bidding_modalities (id),
  bidding_number        text,
  date_signature        date NOT NULL,
  date_expiration       date NOT NULL,
  management_status_id  smallint NOT NULL REFERENCES management_statuses (id),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, number)
);
CREATE INDEX arps_signature ON arps (date_signature DESC, id);
CREATE INDEX arps_organization_signature ON arps (organization_id, date_signature DESC, id);
CREATE INDEX arps_bidding ON arps (bidding_id);
CREATE INDEX arps_supplier ON arps (supplier_id);
CREATE INDEX arps_modality ON arps (modality_id);
CREATE INDEX arps_management_status ON arps (management_status_id);

CREATE TABLE contracts (
  id                       uuid PRIMARY KEY,
  organization_id          uuid NOT NULL REFERENCES organizations (id),
  contract_number          text NOT NULL,
  bidding_id               uuid REFERENCES biddings (id),
  arp_number               text,
  object_details           text NOT NULL,
  amount_total             numeric NOT NULL,
  supplier_id              bigint NOT NULL REFERENCES suppliers (id),
  contractor_company_name  text NOT NULL,
  modality_id              smallint NOT NULL REFERENCES bidding_modalities (id),
  term_title               text NOT NULL,
  bidding_number           text,
  date_start               date NOT NULL,
  date_end                 date NOT NULL,
  management_status_id     smallint NOT NULL REFERENCES management_statuses (id),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, contract_number)
);
CREATE INDEX contracts_start ON contracts (date_start DESC, id);
CREATE INDEX contracts_organization_start ON contracts (organization_id, date_start DESC, id);
CREATE INDEX contracts_bidding ON contracts (bidding_id);
CREATE INDEX contracts_arp ON contracts (organization_id, arp_number) WHERE arp_number IS NOT NULL;
CREATE INDEX contracts_supplier ON contracts (supplier_id);
CREATE INDEX contracts_modality ON contracts (modality_id);
CREATE INDEX contracts_management_status ON contracts (management_status_id);

-- Managers and inspectors of a contract.
CREATE TABLE contract_people (
  contract_id  uuid NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('manager', 'inspector')),
  position     smallint NOT NULL,
  role         text NOT NULL,
  name         text NOT NULL,
  cpf          text NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
  office       text NOT NULL,
  PRIMARY KEY (contract_id, kind, position)
);

CREATE TABLE contract_commitments (
  contract_id           uuid NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
  position              smallint NOT NULL,
  year                  integer NOT NULL,
  number                text NOT NULL,
  emission_date         date NOT NULL,
  description           text NOT NULL,
  value                 numeric NOT NULL,
  expense_account_code  text NOT NULL,
  expense_account_name  text NOT NULL,
  PRIMARY KEY (contract_id, position)
);

-- Additive terms belong to exactly one contract or ARP.
CREATE TABLE additive_terms (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  contract_id     uuid REFERENCES contracts (id) ON DELETE CASCADE,
  arp_id          uuid REFERENCES arps (id) ON DELETE CASCADE,
  position        smallint NOT NULL,
  number          text NOT NULL,
  kind            text NOT NULL,
  description     text NOT NULL,
  signature_date  date NOT NULL,
  date_start      date,
  date_end        date,
  value           numeric,
  CHECK (num_nonnulls(contract_id, arp_id) = 1)
);
CREATE UNIQUE INDEX additive_terms_contract ON additive_terms (contract_id, position) WHERE contract_id IS NOT NULL;
CREATE UNIQUE INDEX additive_terms_arp ON additive_terms (arp_id, position) WHERE arp_id IS NOT NULL;

-- Documents belong to exactly one contract, bidding, ARP or additive term.
CREATE TABLE documents (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid         uuid NOT NULL,
  name         text NOT NULL,
  url          text NOT NULL,
  position     smallint NOT NULL,
  contract_id  uuid REFERENCES contracts (id) ON DELETE CASCADE,
  bidding_id   uuid REFERENCES biddings (id) ON DELETE CASCADE,
  arp_id       uuid REFERENCES arps (id) ON DELETE CASCADE,
  term_id      bigint REFERENCES additive_terms (id) ON DELETE CASCADE,
  CHECK (num_nonnulls(contract_id, bidding_id, arp_id, term_id) = 1)
);
CREATE INDEX documents_contract ON documents (contract_id, position) WHERE contract_id IS NOT NULL;
CREATE INDEX documents_bidding ON documents (bidding_id, position) WHERE bidding_id IS NOT NULL;
CREATE INDEX documents_arp ON documents (arp_id, position) WHERE arp_id IS NOT NULL;
CREATE INDEX documents_term ON documents (term_id, position) WHERE term_id IS NOT NULL;

-- Supply orders link to their contract and ARP by number inside the same organization.
CREATE TABLE orders (
  id                            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id               uuid NOT NULL REFERENCES organizations (id),
  number                        text NOT NULL,
  unit_id                       bigint NOT NULL REFERENCES units (id),
  object                        text NOT NULL,
  process_number                text,
  bidding_number                text,
  modality_id                   smallint NOT NULL REFERENCES bidding_modalities (id),
  status_id                     smallint NOT NULL REFERENCES order_statuses (id),
  supplier_id                   bigint NOT NULL REFERENCES suppliers (id),
  representative_name           text NOT NULL,
  arp_number                    text,
  contract_number               text,
  expense_classification_title  text NOT NULL,
  expense_type_title            text NOT NULL,
  location_delivery             text NOT NULL,
  deadline_delivery             timestamptz NOT NULL,
  invoice_number                text,
  invoice_issue_date            timestamptz,
  amount_total                  numeric NOT NULL,
  updated_at                    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, number)
);
CREATE INDEX orders_contract ON orders (organization_id, contract_number) WHERE contract_number IS NOT NULL;
CREATE INDEX orders_arp ON orders (organization_id, arp_number) WHERE arp_number IS NOT NULL;

CREATE TABLE order_items (
  order_id          bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position          smallint NOT NULL,
  number_item       text NOT NULL,
  description       text NOT NULL,
  brand             text NOT NULL,
  unit_measurement  text NOT NULL,
  quantity          integer NOT NULL,
  amount            numeric NOT NULL,
  amount_total      numeric NOT NULL,
  PRIMARY KEY (order_id, position)
);
