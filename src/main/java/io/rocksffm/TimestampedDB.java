package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The reads and writes of a {@link RocksDB}'s column families with user-defined timestamps
 * ({@link TimestampedComparator}): every write names its timestamp, every read names the time it
 * reads as of ({@link ReadOptions#setTimestamp}) and gets the timestamp of the version it found.
 * A view: nothing to close; it works while its database is open. The database's other methods
 * refuse such families ({@link RocksDBException} {@code INVALID_ARGUMENT} from RocksDB for puts,
 * deletes, merges, gets and iterators without a read timestamp; {@link IllegalArgumentException}
 * for a {@link WriteBatch} naming one, since RocksDB would store its keys without timestamps),
 * and these methods refuse families without timestamps and timestamps of another size the same
 * way ({@code INVALID_ARGUMENT}). Iterators are the database's
 * ({@link Database#newIterator(ColumnFamilyHandle, ReadOptions)} with a read timestamp;
 * {@link RocksIterator#timestamp()}).
 *
 * {@snippet id="TimestampedDB" :
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setComparator(TimestampedComparator.bytewiseU64());   // 8-byte timestamps
 *      RocksDB db = RocksDB.open(path, options);
 *      ReadOptions asOf = new ReadOptions()) {
 *     TimestampedDB versions = TimestampedDB.of(db);
 *     ColumnFamilyHandle family = db.defaultColumnFamily();
 *     versions.put(family, "price".getBytes(UTF_8), Timestamps.u64(1), "10".getBytes(UTF_8));
 *     versions.put(family, "price".getBytes(UTF_8), Timestamps.u64(3), "12".getBytes(UTF_8));
 *     asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(2)));   // read as of time 2
 *     TimestampedDB.Versioned price = versions.get(family, asOf, "price".getBytes(UTF_8));
 *     // price.value() is "10", price.timestamp() the 1 it was written at
 * }
 * }
 *
 * <p>Thread-safe, like its database. Inputs are read during the call only.
 */
public final class TimestampedDB {
    private final RocksDB db;

    private TimestampedDB(RocksDB db) {
        this.db = db;
    }

    /**
     * The timestamped reads and writes of {@code db}.
     *
     * @param db the database (open; used by every call, and closed by its owner)
     * @return a view of it
     * @throws NullPointerException if {@code db} is null
     */
    public static TimestampedDB of(RocksDB db) {
        return new TimestampedDB(Objects.requireNonNull(db, "db"));
    }

    /** {@return the database this view reads and writes} */
    public RocksDB database() {
        return db;
    }

    /**
     * A value and the timestamp of the version it was read from.
     *
     * @param value     the value's bytes
     * @param timestamp the version's timestamp
     */
    public record Versioned(byte[] value, byte[] timestamp) {
        /**
         * Checks the parts.
         *
         * @param value     the value's bytes
         * @param timestamp the version's timestamp
         * @throws NullPointerException if either is null
         */
        public Versioned {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(timestamp, "timestamp");
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Writes {@code key}'s version at {@code timestamp} ({@code rocksdb_put_cf_with_ts}).
     *
     * @param family    the family (of this database, with timestamps)
     * @param options   the write options
     * @param key       the key, without timestamp
     * @param timestamp the version's timestamp, of the family's size
     * @param value     the value
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's, or a key or value
     *         exceeds RocksDB's limits
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the family has no timestamps or
     *         {@code timestamp} is not of its size; another status if the write fails
     * @throws IllegalStateException if the database, family or options are closed
     */
    public void put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment timestamp,
                    MemorySegment value) {
        Limits.checkKeyValue(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        write(family, options, key, timestamp, value);
    }

    /**
     * {@link #put(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment, MemorySegment)}
     * with default write options.
     *
     * @param family    the family
     * @param key       the key
     * @param timestamp the version's timestamp
     * @param value     the value
     * @throws NullPointerException if an argument is null
     * @throws RocksDBException as the core form
     * @throws IllegalStateException if the database or family is closed
     */
    public void put(ColumnFamilyHandle family, byte[] key, byte[] timestamp, byte[] value) {
        put(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(timestamp, "timestamp")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * Deletes {@code key} as of {@code timestamp} ({@code rocksdb_delete_cf_with_ts}): reads as of
     * that time or later miss it until a newer put; reads as of earlier times still see the
     * versions before.
     *
     * @param family    the family (of this database, with timestamps)
     * @param options   the write options
     * @param key       the key, without timestamp
     * @param timestamp the deletion's timestamp, of the family's size
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the family has no timestamps or
     *         {@code timestamp} is not of its size; another status if the write fails
     * @throws IllegalStateException if the database, family or options are closed
     */
    public void delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment timestamp) {
        Limits.checkKey(Objects.requireNonNull(key, "key"));
        write(family, options, key, timestamp, null);
    }

    /**
     * {@link #delete(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} with default
     * write options.
     *
     * @param family    the family
     * @param key       the key
     * @param timestamp the deletion's timestamp
     * @throws NullPointerException if an argument is null
     * @throws RocksDBException as the core form
     * @throws IllegalStateException if the database or family is closed
     */
    public void delete(ColumnFamilyHandle family, byte[] key, byte[] timestamp) {
        delete(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(timestamp, "timestamp")));
    }

    /**
     * Deletes the one version of {@code key} below {@code timestamp}
     * ({@code rocksdb_singledelete_cf_with_ts}; RocksDB's single-deletion contract: the key was
     * put once since its last deletion, and never merged).
     *
     * @param family    the family (of this database, with timestamps)
     * @param options   the write options
     * @param key       the key, without timestamp
     * @param timestamp the deletion's timestamp, of the family's size
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the family has no timestamps or
     *         {@code timestamp} is not of its size; another status if the write fails
     * @throws IllegalStateException if the database, family or options are closed
     */
    public void singleDelete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment timestamp) {
        Limits.checkKey(Objects.requireNonNull(key, "key"));
        write(family, options, key, timestamp, SINGLE);
    }

    /**
     * {@link #singleDelete(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} with
     * default write options.
     *
     * @param family    the family
     * @param key       the key
     * @param timestamp the deletion's timestamp
     * @throws NullPointerException if an argument is null
     * @throws RocksDBException as the core form
     * @throws IllegalStateException if the database or family is closed
     */
    public void singleDelete(ColumnFamilyHandle family, byte[] key, byte[] timestamp) {
        singleDelete(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(timestamp, "timestamp")));
    }

    /** Marks a single deletion for {@link #write}. */
    private static final MemorySegment SINGLE = MemorySegment.ofArray(new byte[0]);

    /** One timestamped write: a put ({@code value}), a deletion (null) or a single deletion ({@link #SINGLE}). */
    private void write(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment timestamp,
                       MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(timestamp, "timestamp");
        try (Scratch s = db.guard.begin(options, family)) {
            MemorySegment k = s.first(key);
            MemorySegment ts = nativeTimestamp(s, timestamp);
            if (value == null) {
                rocksdb_delete_cf_with_ts(db.db, options.ptr, family.ptr, k, key.byteSize(), ts, timestamp.byteSize(), s.errptr);
            } else if (value == SINGLE) {
                rocksdb_singledelete_cf_with_ts(db.db, options.ptr, family.ptr, k, key.byteSize(), ts, timestamp.byteSize(),
                        s.errptr);
            } else {
                rocksdb_put_cf_with_ts(db.db, options.ptr, family.ptr, k, key.byteSize(), ts, timestamp.byteSize(),
                        s.second(value), value.byteSize(), s.errptr);
            }
            db.checkWrite(s.errptr);
        }
    }

    /** {@code timestamp} itself when native, else copied into scratch memory apart from the key's and value's. */
    private static MemorySegment nativeTimestamp(Scratch s, MemorySegment timestamp) {
        if (timestamp.isNative()) {
            return timestamp;
        }
        if (timestamp.byteSize() > Integer.MAX_VALUE) {
            throw Scratch.tooLarge(timestamp.byteSize());
        }
        MemorySegment b = s.buffer(Scratch.MULTI_BYTES, timestamp.byteSize());
        MemorySegment.copy(timestamp, 0, b, 0, timestamp.byteSize());
        return b;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * Reads {@code key}'s newest version at or before the read timestamp of {@code options}
     * ({@code rocksdb_get_cf_with_ts}).
     *
     * @param family  the family (of this database, with timestamps)
     * @param options read options with a timestamp ({@link ReadOptions#setTimestamp})
     * @param key     the key, without timestamp
     * @return the value and its version's timestamp, or null if the key has no version then, or
     *         its newest one is a deletion
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the options have no timestamp, one of
     *         another size, or the family has no timestamps; another status if the read fails
     * @throws IllegalStateException if the database, family or options are closed
     */
    public Versioned get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Limits.checkKey(Objects.requireNonNull(key, "key"));
        try (Scratch s = db.guard.beginRead(options, family); Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG, 3); // value length, timestamp pointer, timestamp length
            MemorySegment v = rocksdb_get_cf_with_ts(db.db, options.ptr, family.ptr, s.first(key), key.byteSize(), out,
                    out.asSlice(8), out.asSlice(16), s.errptr);
            MemorySegment ts = out.get(ADDRESS, 8);
            try {
                Native.check(s.errptr);
                return v.address() == 0 ? null
                        : new Versioned(copy(v, out.get(JAVA_LONG, 0)), copy(ts, out.get(JAVA_LONG, 16)));
            } finally {
                free(v);
                free(ts);
            }
        }
    }

    /**
     * {@link #get(ColumnFamilyHandle, ReadOptions, MemorySegment)} of a {@code byte[]} key.
     *
     * @param family  the family
     * @param options read options with a timestamp
     * @param key     the key
     * @return the value and its timestamp, or null
     * @throws NullPointerException if an argument is null
     * @throws RocksDBException as the core form
     * @throws IllegalStateException if the database, family or options are closed
     */
    public Versioned get(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        return get(family, options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * Reads several keys as of the read timestamp of {@code options}, in one call
     * ({@code rocksdb_multi_get_cf_with_ts}).
     *
     * @param options  read options with a timestamp
     * @param families each key's family (of this database, with timestamps)
     * @param keys     the keys, without timestamps
     * @return for each key, in order, its value and timestamp, or null as {@link #get}
     * @throws NullPointerException if an argument or element is null
     * @throws IllegalArgumentException if the lists differ in size, or a family is another database's
     * @throws RocksDBException the first key's failure ({@code INVALID_ARGUMENT} as {@link #get})
     * @throws IllegalStateException if the database, a family or the options are closed
     */
    public List<Versioned> multiGet(ReadOptions options, List<ColumnFamilyHandle> families, List<byte[]> keys) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(families, "families");
        int n = Objects.requireNonNull(keys, "keys").size();
        if (families.size() != n) {
            throw new IllegalArgumentException(families.size() + " families for " + n + " keys");
        }
        try (Scratch s = db.guard.beginRead(options, db.defaultFamily); Arena arena = Arena.ofConfined()) {
            MemorySegment slots = arena.allocate(JAVA_LONG, 8L * Math.max(1, n)); // 8 arrays of n pointers or sizes
            for (int i = 0; i < n; i++) {
                ColumnFamilyHandle f = Objects.requireNonNull(families.get(i), "family");
                byte[] key = Objects.requireNonNull(keys.get(i), "key");
                db.guard.enterOtherFamily(s, f);
                slots.setAtIndex(ADDRESS, i, f.ptr);
                slots.setAtIndex(ADDRESS, n + i, arena.allocateFrom(JAVA_BYTE, key));
                slots.setAtIndex(JAVA_LONG, 2L * n + i, key.length);
            }
            rocksdb_multi_get_cf_with_ts(db.db, options.ptr, slots, n, slots.asSlice(8L * n), slots.asSlice(16L * n),
                    slots.asSlice(24L * n), slots.asSlice(32L * n), slots.asSlice(40L * n), slots.asSlice(48L * n),
                    slots.asSlice(56L * n));
            return collect(slots, n);
        }
    }

    /** Takes the values, timestamps and errors of a multi-get, freeing all of them; throws the first error. */
    private static List<Versioned> collect(MemorySegment slots, int n) {
        List<Versioned> out = new ArrayList<>(n);
        RocksDBException first = null;
        for (int i = 0; i < n; i++) {
            MemorySegment v = slots.getAtIndex(ADDRESS, 3L * n + i);
            MemorySegment ts = slots.getAtIndex(ADDRESS, 5L * n + i);
            RocksDBException e = Native.takeError(slots, 8L * (7L * n + i));
            if (e != null && first == null) {
                first = e;
            }
            out.add(v.address() == 0 || e != null ? null
                    : new Versioned(copy(v, slots.getAtIndex(JAVA_LONG, 4L * n + i)), copy(ts, slots.getAtIndex(JAVA_LONG, 6L * n + i))));
            free(v);
            free(ts);
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    private static byte[] copy(MemorySegment p, long length) {
        return length == 0 ? new byte[0] : p.reinterpret(length).toArray(JAVA_BYTE);
    }

    private static void free(MemorySegment p) {
        if (p.address() != 0) {
            Native.rocksdbFree(p);
        }
    }

    // ---- history --------------------------------------------------------------------------------

    /**
     * Raises the family's full-history low timestamp ({@code rocksdb_increase_full_history_ts_low}):
     * compactions may then collapse versions older than it, and reads as of earlier times fail.
     *
     * @param family    the family (of this database, with timestamps)
     * @param timestamp the new low, of the family's size, not below the current one
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the family has no timestamps, the size is
     *         wrong, or {@code timestamp} is below the current low
     * @throws IllegalStateException if the database or family is closed
     */
    public void increaseFullHistoryTsLow(ColumnFamilyHandle family, byte[] timestamp) {
        Objects.requireNonNull(timestamp, "timestamp");
        try (Scratch s = db.guard.begin(WriteOptions.DEFAULT, family)) {
            rocksdb_increase_full_history_ts_low(db.db, family.ptr, s.copy(Scratch.FIRST, timestamp), timestamp.length,
                    s.errptr);
            Native.check(s.errptr);
        }
    }

    /**
     * The family's full-history low timestamp ({@code rocksdb_get_full_history_ts_low}).
     *
     * @param family the family (of this database, with timestamps)
     * @return the low, empty if none was set
     * @throws NullPointerException if {@code family} is null
     * @throws IllegalArgumentException if {@code family} is another database's
     * @throws RocksDBException {@code INVALID_ARGUMENT} if the family has no timestamps
     * @throws IllegalStateException if the database or family is closed
     * @throws UnsupportedOperationException on engines before RocksDB 8.8 (7.8.3 included), whose
     *         function asserts that a low was set (a build with assertions aborts the process)
     */
    public byte[] fullHistoryTsLow(ColumnFamilyHandle family) {
        try (Scratch s = db.guard.begin(family)) { // closed first, then the engine
            Capabilities.requireSince("rocksdb_get_full_history_ts_low", "8.8",
                    "it asserts that the family's low was set, which aborts the process in a build with assertions");
            MemorySegment p = rocksdb_get_full_history_ts_low(db.db, family.ptr, s.size, s.errptr);
            try {
                Native.check(s.errptr);
                return copy(p, s.size.get(JAVA_LONG, 0));
            } finally {
                free(p);
            }
        }
    }

    @Override
    public String toString() {
        return "TimestampedDB[" + db + "]";
    }
}
