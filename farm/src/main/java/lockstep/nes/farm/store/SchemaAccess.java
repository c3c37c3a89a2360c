package lockstep.nes.farm.store;

/**
 * What opening a store may do to it. Only {@code farm submit} creates a store; workers and
 * coordinators bring an existing one up to date; the operators' commands (status, report,
 * requeue, cancel) never change the schema, so a mistyped URL or path is reported instead of
 * becoming a new, empty store.
 */
public enum SchemaAccess {
    /** An empty database (or a missing SQLite file) becomes a store; an older one is migrated. */
    CREATE,
    /** The store must exist; an older one is migrated. */
    UPGRADE,
    /** The store must exist at this build's schema version; nothing is written to the schema. */
    READ
}
