-- Documents are stored as they are served, not compressed. PostgreSQL compresses a row's longest values once
-- the row passes 2 kB (toast_tuple_target), which put 85% of the benchmark's detail documents (2.6 kB on
-- average) through pglz, and every lookup through its inflating: a batch of 15 contracts cost PostgreSQL
-- 7 µs of CPU a detail more than the same rows stored whole (20 against 12-13 µs a request, random contract
-- details at 32 connections; 3,600-4,300 batches a second against 5,100-5,800 under pgbench alone). A row
-- now stays whole up to the largest a page holds; only the rare longer one is compressed or moved out.
-- The cost is disk: the large dataset's detail documents take 1.7 GB against 1.1 GB.
ALTER TABLE detail_documents SET (toast_tuple_target = 8160);
ALTER TABLE order_documents SET (toast_tuple_target = 8160);

-- The setting holds for rows written from now on. The detail documents stored before it are rebuilt once,
-- by `migrate` or `serve` right after the migrations (src/readmodel/build.ts rebuilds a kind that has no
-- version). Orders' documents are rarely over 2 kB (0.05% of the large dataset's): each is written whole
-- the next time an import rebuilds it.
DELETE FROM read_model_versions WHERE kind NOT IN ('order', 'ocds');
