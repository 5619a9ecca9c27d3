package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;

import java.lang.foreign.MemorySegment;

/**
 * An open column family of a database ({@code rocksdb_column_family_handle_t}).
 *
 * {@snippet id="ColumnFamilyHandle" :
 * List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor("default", options),
 *         new ColumnFamilyDescriptor("users", options));
 * try (RocksDB db = RocksDB.open(path, options, families);
 *      WriteOptions write = new WriteOptions()) {
 *     ColumnFamilyHandle users = db.columnFamily("users");   // owned by db: closed with it
 *     db.put(users, write, "1".getBytes(UTF_8), "alice".getBytes(UTF_8));
 *     byte[] alice = db.get(users, "1".getBytes(UTF_8));     // "alice"
 *     byte[] none = db.get("1".getBytes(UTF_8));             // null: not in the default family
 * }
 * }
 *
 * <p>Handles belong to their database: it creates them (at open, or with
 * {@link RocksDB#createColumnFamily}) and closes those still open when it closes. Closing a
 * handle yourself only releases the handle (the family and its data stay; reopen the database to
 * get a handle again); {@link RocksDB#dropColumnFamily} drops the family and closes its handle.
 * The default family's handle is never closed by {@link #close()}: it lives as long as the
 * database. Using a closed handle throws {@link IllegalStateException}; using a handle with
 * another database throws {@link IllegalArgumentException}. Closing refuses while iterators on
 * the family are open. Safe to share across threads.
 */
public final class ColumnFamilyHandle extends NativeObject {
    /** The name of the family every database has. */
    public static final String DEFAULT = "default";

    final Database db;
    private final String name;
    private final int id;

    ColumnFamilyHandle(Database db, String name, MemorySegment handle) {
        super(Lifecycle.striped("ColumnFamilyHandle(" + name + ")"), "ColumnFamilyHandle(" + name + ")", handle);
        this.db = db;
        this.name = name;
        this.id = rocksdb_column_family_handle_get_id(handle);
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_column_family_handle_destroy(p);
    }

    /** {@return the families of this family's database (what they know of this one: comparator, timestamps)} */
    ColumnFamilies families() {
        return db.families;
    }

    /** {@return the family's name} */
    public String name() {
        return name;
    }

    /** {@return the family's id, as RocksDB numbers families (0 is the default family)} */
    public int id() {
        return id;
    }

    /** {@return whether this is the default family} */
    public boolean isDefault() {
        return id == 0;
    }

    /** {@return the database this handle belongs to} */
    public Database database() {
        return db;
    }

    /**
     * Releases the handle (not the family); a no-op for the default family. Idempotent.
     *
     * @throws IllegalStateException while iterators on this family are open
     */
    @Override
    public void close() {
        if (!isDefault()) {
            closeHandle();
        }
    }

    /** Destroys the handle, default family included (by the database). */
    void closeHandle() {
        closeHandle(null);
    }

    /**
     * Destroys the handle after {@code first} (if not null) ran: once the calls using it in flight
     * have left, and with new ones refused. The handle is destroyed also if {@code first} throws.
     */
    void closeHandle(Runnable first) {
        lifecycle.close(() -> {
            try {
                if (first != null) {
                    first.run();
                }
            } finally {
                destroy(ptr);
                db.forget(this);
            }
        }, "iterators");
    }

    @Override
    public String toString() {
        return "ColumnFamilyHandle[" + name + ", id " + id + "]";
    }
}
