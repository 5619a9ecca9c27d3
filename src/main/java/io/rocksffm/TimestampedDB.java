package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Copies;
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
 * A view: nothing to close; it works while its database is open. Every write without a timestamp
 * into such a family is refused with {@link IllegalArgumentException} before RocksDB sees it
 * (the database's puts, deletes and merges, a {@link WriteBatch} or {@link WriteBatchWithIndex}
 * holding records for it, transactions, an {@link SstFileWriter} with a timestamped comparator:
 * RocksDB would take a key's last bytes for its timestamp); the database's gets and iterators
 * without a read timestamp get {@link RocksDBException} {@code INVALID_ARGUMENT} from RocksDB.
 * These methods refuse, with {@link IllegalArgumentException} and before RocksDB is called, a
 * family without timestamps, a timestamp of another size than the family's, and a read without
 * a read timestamp. Iterators are the database's
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
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, {@code timestamp} is not of its size, or a key or value exceeds RocksDB's
     *         limits
     * @throws RocksDBException if the write fails
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
     * @throws IllegalArgumentException as the core form
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
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, or {@code timestamp} is not of its size
     * @throws RocksDBException if the write fails
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
     * @throws IllegalArgumentException as the core form
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
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, or {@code timestamp} is not of its size
     * @throws RocksDBException if the write fails
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
     * @throws IllegalArgumentException as the core form
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
            db.families.checkTimestamp(family, timestamp.byteSize());
            if (key.byteSize() == 0) { // RocksDB's iterator asserts a key is longer than its timestamp
                throw new IllegalArgumentException("an empty key in column family '" + family.name() + "', which has"
                        + " user-defined timestamps, is refused (an engine built with assertions aborts on reading it"
                        + " back through an iterator)");
            }
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
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, or the options have no read timestamp or one of another size
     * @throws UnsupportedOperationException if the value does not fit in a {@code byte[]} (over
     *         2 GiB: read it with
     *         {@link #get(ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment, MemorySegment)};
     *         what was read is released first)
     * @throws RocksDBException if the read fails (e.g. {@code INVALID_ARGUMENT} for a read
     *         timestamp below the family's full-history low, see {@link #increaseFullHistoryTsLow})
     * @throws IllegalStateException if the database, family or options are closed
     */
    public Versioned get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        return read(family, options, key, null, null,
                (v, length, ts, tsLength) -> new Versioned(copy(v, length), copy(ts, tsLength)));
    }

    /** What a timestamped read hands the value and timestamp it found to (both freed once it returns). */
    @FunctionalInterface
    private interface Found<T> {
        T take(MemorySegment value, long length, MemorySegment timestamp, long timestampLength);
    }

    /**
     * One {@code rocksdb_get_cf_with_ts}, checked first (and {@code timestampOut}'s size, if
     * given): {@code absent} when not found, else what {@code found} makes of it.
     */
    private <T> T read(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment timestampOut,
                       T absent, Found<T> found) {
        Objects.requireNonNull(options, "options");
        Limits.checkKey(Objects.requireNonNull(key, "key"));
        try (Scratch s = db.guard.begin(options, family); Arena arena = Arena.ofConfined()) {
            db.families.checkReadTimestamp(family, options.timestampSize());
            if (timestampOut != null) {
                db.families.checkTimestamp(family, timestampOut.byteSize());
            }
            MemorySegment out = arena.allocate(JAVA_LONG, 3); // value length, timestamp pointer, timestamp length
            MemorySegment v = rocksdb_get_cf_with_ts(db.db, options.ptr, family.ptr, s.first(key), key.byteSize(), out,
                    out.asSlice(8), out.asSlice(16), s.errptr);
            MemorySegment ts = out.get(ADDRESS, 8);
            try {
                Native.check(s.errptr);
                return v.address() == 0 ? absent : found.take(v, out.get(JAVA_LONG, 0), ts, out.get(JAVA_LONG, 16));
            } finally {
                free(v);
                free(ts);
            }
        }
    }

    /**
     * Reads {@code key}'s newest version at or before the read timestamp of {@code options} into
     * caller memory ({@code rocksdb_get_cf_with_ts}): as much of the value as fits into
     * {@code value}, and the version's timestamp into {@code timestamp}. Values of any size
     * (over 2 GiB too) are read this way.
     *
     * @param family    the family (of this database, with timestamps)
     * @param options   read options with a timestamp ({@link ReadOptions#setTimestamp})
     * @param key       the key, without timestamp
     * @param value     where the value is copied (heap or native, writable; bytes past the value
     *                  are left as they were)
     * @param timestamp where the version's timestamp is copied: exactly the family's timestamp size
     *                  (writable)
     * @return the value's full length (more than {@code value.byteSize()} if it was cut), or -1
     *         if the key has no version then, or its newest one is a deletion ({@code value} and
     *         {@code timestamp} are then left as they were)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, the options have no read timestamp or one of another size,
     *         {@code timestamp} is not of the family's timestamp size, or a segment is read-only
     * @throws RocksDBException if the read fails
     * @throws IllegalStateException if the database, family or options are closed
     */
    public long get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value,
                    MemorySegment timestamp) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(timestamp, "timestamp");
        if (value.isReadOnly() || timestamp.isReadOnly()) {
            throw new IllegalArgumentException("value or timestamp segment is read-only");
        }
        return read(family, options, key, timestamp, -1L, (v, length, ts, tsLength) -> {
            Copies.fromAddress(v.address(), value, 0, Math.min(length, value.byteSize()));
            Copies.fromAddress(ts.address(), timestamp, 0, Math.min(tsLength, timestamp.byteSize()));
            return length;
        });
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
     * @throws IllegalArgumentException if the lists differ in size, a family is another database's
     *         or has no timestamps, or the options have no read timestamp or one of another size
     * @throws UnsupportedOperationException if a value does not fit in a {@code byte[]} (over 2 GiB;
     *         every key's value, timestamp and error is released first)
     * @throws RocksDBException the first key's failure, after every key's result was released
     * @throws IllegalStateException if the database, a family or the options are closed
     */
    public List<Versioned> multiGet(ReadOptions options, List<ColumnFamilyHandle> families, List<byte[]> keys) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(families, "families");
        int n = Objects.requireNonNull(keys, "keys").size();
        if (families.size() != n) {
            throw new IllegalArgumentException(families.size() + " families for " + n + " keys");
        }
        try (Scratch s = db.guard.begin(options, db.defaultFamily); Arena arena = Arena.ofConfined()) {
            long readTimestamp = options.timestampSize();
            MemorySegment slots = arena.allocate(JAVA_LONG, 8L * Math.max(1, n)); // 8 arrays of n pointers or sizes
            for (int i = 0; i < n; i++) {
                ColumnFamilyHandle f = Objects.requireNonNull(families.get(i), "family");
                byte[] key = Objects.requireNonNull(keys.get(i), "key");
                db.guard.enterOtherFamily(s, f);
                db.families.checkReadTimestamp(f, readTimestamp);
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

    /**
     * Takes the values, timestamps and errors of a multi-get, freeing all of them (also when a
     * copy fails: a value too large for an array); throws the first error.
     */
    private static List<Versioned> collect(MemorySegment slots, int n) {
        List<Versioned> out = new ArrayList<>(n);
        RocksDBException first = null;
        int i = 0;
        try {
            for (; i < n; i++) {
                MemorySegment v = slots.getAtIndex(ADDRESS, 3L * n + i);
                MemorySegment ts = slots.getAtIndex(ADDRESS, 5L * n + i);
                RocksDBException e = Native.takeError(slots, 8L * (7L * n + i));
                if (e != null && first == null) {
                    first = e;
                } else if (e != null) {
                    first.addSuppressed(e);
                }
                try {
                    out.add(v.address() == 0 || e != null ? null : new Versioned(
                            copy(v, slots.getAtIndex(JAVA_LONG, 4L * n + i)), copy(ts, slots.getAtIndex(JAVA_LONG, 6L * n + i))));
                } finally {
                    free(v);
                    free(ts);
                }
            }
        } catch (RuntimeException | Error failure) { // release the keys not reached
            for (int j = i + 1; j < n; j++) {
                free(slots.getAtIndex(ADDRESS, 3L * n + j));
                free(slots.getAtIndex(ADDRESS, 5L * n + j));
                Native.takeError(slots, 8L * (7L * n + j));
            }
            throw failure;
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** A returned C buffer as an array (UnsupportedOperationException over an array's size, before allocating). */
    private static byte[] copy(MemorySegment p, long length) {
        return length == 0 ? new byte[0] : Copies.toArray(p.address(), length);
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
     * @throws IllegalArgumentException if {@code family} is another database's or has no
     *         timestamps, or {@code timestamp} is not of its size
     * @throws RocksDBException {@code INVALID_ARGUMENT} if {@code timestamp} is below the current low
     * @throws IllegalStateException if the database or family is closed
     */
    public void increaseFullHistoryTsLow(ColumnFamilyHandle family, byte[] timestamp) {
        Objects.requireNonNull(timestamp, "timestamp");
        try (Scratch s = db.guard.begin(WriteOptions.DEFAULT, family)) {
            db.families.checkTimestamp(family, timestamp.length);
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
        try (Scratch s = db.guard.begin(family)) { // closed first, then the family, then the engine
            db.families.requireTimestamped(family);
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
