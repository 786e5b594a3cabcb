SELECT pg_advisory_xact_lock(7310002);

-- The names a company was recorded under (src/import/write.ts adds each name an import gives), for its page.
CREATE TABLE IF NOT EXISTS supplier_names (
  supplier_id  bigint NOT NULL REFERENCES suppliers (id),
  name         text NOT NULL,
  first_seen   date NOT NULL,
  last_seen    date NOT NULL,
  PRIMARY KEY (supplier_id, name)
);
INSERT INTO supplier_names (supplier_id, name, first_seen, last_seen)
SELECT id, name, current_date, current_date FROM suppliers WHERE length(document) = 14
ON CONFLICT (supplier_id, name) DO NOTHING;
