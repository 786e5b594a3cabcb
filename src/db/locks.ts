// The advisory locks that order work across processes on one database (pg_advisory_lock keys).

/** One migrator at a time (held for the session). */
export const MIGRATE_LOCK = 7_310_001
/**
 * One writer of published data at a time (held for the transaction): imports, and rebuilds of the read model.
 * It keeps the key-clash checks of an import true until it commits, and numbers the change logs and the OCDS
 * releases in commit order (migrations 0015, 0016 take it too).
 */
export const IMPORT_LOCK = 7_310_002
/** One rebuild of the read model after an upgrade at a time (held for the session). */
export const SYNC_LOCK = 7_310_003
/** A webhook subscription's deliveries: one instance at a time (held for the session, with the subscription's id). */
export const WEBHOOK_LOCK = 7_310_004
