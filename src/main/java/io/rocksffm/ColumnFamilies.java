package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import io.rocksffm.internal.BatchFormat;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import io.rocksffm.internal.OptionsFileText;
import java.nio.file.Path;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A database's column families: the open handles by name, the ids of every family it has (for
 * checking write batches), and creating and dropping families. Thread-safe.
 */
final class ColumnFamilies {
    private final Map<String, ColumnFamilyHandle> open = new ConcurrentHashMap<>();
    /** Names of the families the database has (open handle or not). */
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** Ids of the families the database has (open handle or not). */
    private final Set<Integer> ids = ConcurrentHashMap.newKeySet();
    /** Ids of the families with a merge operator (set by rocksffm, or named in the database's OPTIONS file). */
    private final Set<Integer> mergeIds = ConcurrentHashMap.newKeySet();
    /**
     * The timestamp size of each family with user-defined timestamps (a {@link TimestampedComparator},
     * or a built-in one named so), by id.
     */
    private final Map<Integer, Integer> timestampSizes = new ConcurrentHashMap<>();
    /** The key order of each family not ordered bytewise (by id). */
    private final Map<Integer, KeyOrder> orderById = new ConcurrentHashMap<>();
    /**
     * Taken for reading by batch writes naming non-default families (from their check until the
     * engine has applied them), for writing by a drop: a batch never reaches the engine naming a
     * family dropped after its check.
     */
    final ReentrantReadWriteLock dropLock = new ReentrantReadWriteLock();
    /** Comparators the database uses, released after it closes. */
    private final List<NativeComparator> comparators = new CopyOnWriteArrayList<>();
    /** The native comparator of each family opened or created with a Java one (by id). */
    private final Map<Integer, NativeComparator> nativeComparatorById = new ConcurrentHashMap<>();
    /** The environments and info loggers the database's options named, released after it closes. */
    private final List<Lifecycle> environment = new CopyOnWriteArrayList<>();

    /** The database these are the families of. */
    private final Database db;

    /** Registers the handles {@code rocksdb_open*} returned for {@code names} of {@code db}. */
    ColumnFamilies(Database db, List<String> names, MemorySegment handles) {
        this.db = db;
        for (int i = 0; i < names.size(); i++) {
            add(new ColumnFamilyHandle(db, names.get(i), handles.getAtIndex(ADDRESS, i)));
        }
    }

    private ColumnFamilyHandle add(ColumnFamilyHandle h) {
        open.put(h.name(), h);
        names.add(h.name());
        ids.add(h.id());
        return h;
    }

    ColumnFamilyHandle get(String name) {
        return open.get(name);
    }

    /** The open handles in id order, default first. */
    List<ColumnFamilyHandle> list() {
        List<ColumnFamilyHandle> out = new ArrayList<>(open.values());
        out.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return Collections.unmodifiableList(out);
    }

    /** The ids of every family the database has. */
    Set<Integer> ids() {
        return ids;
    }

    /** The ids of the families whose reads may call Java code (merge operator, comparator, prefix extractor). */
    private final Set<Integer> javaReadIds = ConcurrentHashMap.newKeySet();

    /** Whether reads (iterator moves) of {@code family} may call Java code through upcalls. */
    boolean readsCallJava(ColumnFamilyHandle family) {
        return javaLogger || javaReadIds.contains(family.id());
    }

    /** The ids of the families with user-defined timestamps (which Java-encoded batches must not name). */
    Set<Integer> timestampedIds() {
        return timestampSizes.keySet();
    }

    /** {@return the size of {@code family}'s user-defined timestamps, 0 if it has none} */
    int timestampSize(ColumnFamilyHandle family) {
        return timestampSizes.isEmpty() ? 0 : timestampSizes.getOrDefault(family.id(), 0);
    }

    /**
     * Refuses a write without a timestamp into {@code family} if it has user-defined timestamps:
     * RocksDB would take the key's last bytes for its timestamp, or refuse it only later.
     *
     * @throws IllegalArgumentException if the family has timestamps
     */
    void refuseTimestamped(ColumnFamilyHandle family) {
        int size = timestampSize(family);
        if (size != 0) {
            throw new IllegalArgumentException("column family '" + family.name() + "' has " + size
                    + "-byte user-defined timestamps: a write"
                    + " without a timestamp is refused (write it with TimestampedDB)");
        }
    }

    /**
     * Checks that {@code family} has user-defined timestamps, for a call that needs them.
     *
     * @return their size
     * @throws IllegalArgumentException if it has none
     */
    int requireTimestamped(ColumnFamilyHandle family) {
        int size = timestampSize(family);
        if (size == 0) {
            throw new IllegalArgumentException("column family '" + family.name() + "' has no user-defined timestamps");
        }
        return size;
    }

    /**
     * Checks the read timestamp of {@code options} (-1: none) for a read of {@code family}.
     *
     * @throws IllegalArgumentException if the family has no timestamps, the options have no read
     *         timestamp, or one of another size
     */
    void checkReadTimestamp(ColumnFamilyHandle family, long size) {
        int expected = requireTimestamped(family);
        if (size < 0) {
            throw new IllegalArgumentException("a read of column family '" + family.name() + "', which has " + expected
                    + "-byte user-defined timestamps, needs read options with a timestamp (ReadOptions.setTimestamp)");
        }
        checkTimestamp(family, size);
    }

    /**
     * Checks a timestamp of {@code size} bytes given for {@code family}.
     *
     * @throws IllegalArgumentException if the family has no timestamps, or timestamps of another size
     */
    void checkTimestamp(ColumnFamilyHandle family, long size) {
        int expected = timestampSize(family);
        if (expected == 0) {
            throw new IllegalArgumentException("column family '" + family.name() + "' has no user-defined timestamps:"
                    + " a timestamp of " + size
                    + " bytes is refused");
        }
        if (size != expected) {
            throw new IllegalArgumentException("column family '" + family.name() + "' has " + expected
                    + "-byte user-defined timestamps, not "
                    + size + "-byte ones");
        }
    }

    /** The ids of the families opened or created with a merge operator. */
    Set<Integer> mergeIds() {
        return mergeIds;
    }

    /** Records what the options {@code family} was opened or created with mean for the database. */
    void configured(ColumnFamilyHandle family, Options options) {
        if (family == null) {
            return;
        }
        if (options.callsJava()) {
            family.db.lifecycle.guardCallbacks();
        }
        if (options.mergeOperator() != null) {
            mergeIds.add(family.id());
        }
        if (options.readsCallJava()) {
            javaReadIds.add(family.id());
        }
        environment.addAll(options.retainEnvironment());
        if (options.comparator() instanceof TimestampedComparator t) { // its size was checked when it was made native
            timestampSizes.put(family.id(), t.timestampSize());
        }
        NativeComparator c = options.retainComparator();
        if (c != null) {
            comparators.add(c);
            nativeComparatorById.put(family.id(), c);
        }
        KeyOrder order = options.keyOrder();
        if (order != KeyOrder.BYTEWISE) {
            orderById.put(family.id(), order);
        }
    }

    /**
     * Learns what the engine runs each open family with from the OPTIONS file it wrote to
     * {@code dir} (after an open for writing or a family's creation): a merge operator however it
     * was set (an options string, an options file), and a built-in comparator's order.
     */
    void learn(Path dir) {
        for (Map.Entry<String, Map<String, String>> e : OptionsFileText.latest(dir).entrySet()) {
            ColumnFamilyHandle h = open.get(e.getKey());
            if (h == null) {
                continue;
            }
            if (OptionsFileText.names(e.getValue().get("merge_operator"))) {
                mergeIds.add(h.id());
            }
            String comparator = e.getValue().get("comparator");
            if (comparator != null && comparator.endsWith(".u64ts")) { // RocksDB's built-in timestamped order
                timestampSizes.putIfAbsent(h.id(), Timestamps.U64_SIZE);
            }
            KeyOrder known = orderById.get(h.id());
            if (known == null || !known.isJava()) {
                KeyOrder order = KeyOrder.named(comparator);
                if (order != KeyOrder.BYTEWISE) {
                    orderById.put(h.id(), order);
                }
            }
        }
    }

    /**
     * Compares two keys in {@code family}'s order: its comparator's (Java or built-in), else
     * bytewise. (A throwing comparator propagates here: this runs on the caller's thread, before
     * RocksDB sees the keys.)
     */
    int compare(ColumnFamilyHandle family, MemorySegment a, MemorySegment b) {
        return compare(family.id(), a, b);
    }

    /** {@link #compare(ColumnFamilyHandle, MemorySegment, MemorySegment)} by the family's id. */
    int compare(int familyId, MemorySegment a, MemorySegment b) {
        return orderById.getOrDefault(familyId, KeyOrder.BYTEWISE).compare(a, b);
    }

    /**
     * The range-order check of every range this database is given (a range deletion, written or in
     * a batch, and a suggested compaction): refuses {@code [begin, end)} when {@code end} sorts
     * before {@code begin} in the order of the family with id {@code familyId}.
     *
     * @param what names the range in the message ("deleteRange", "the batch's range deletion at offset 12")
     * @throws IllegalArgumentException if the range ends before it begins
     */
    void checkRangeOrder(int familyId, MemorySegment begin, MemorySegment end, String what) {
        if (compare(familyId, begin, end) > 0) {
            throw new IllegalArgumentException(what + ": the range ends before it begins in the order of column family id "
                    + familyId);
        }
    }

    /**
     * {@code family}'s Java comparator (for an object RocksDB lets point at it, like an indexed
     * batch holding keys of the family, which retains it while the family is open), or null.
     */
    NativeComparator nativeComparator(ColumnFamilyHandle family) {
        return nativeComparatorById.get(family.id());
    }

    /**
     * Whether the database's options set a Java info logger: RocksDB may log from any read (a
     * table file opened by an iterator's move), so no read of any family is a critical downcall.
     */
    private volatile boolean javaLogger;

    /** Keeps the environment and info logger of the database's own options open while it is. */
    void retainEnvironment(Options options) {
        environment.addAll(options.retainEnvironment());
        if (options.loggerCallsJava()) {
            javaLogger = true;
        }
    }

    /** Releases the comparators (the database is closed: RocksDB no longer calls them). */
    void releaseComparators() {
        for (NativeComparator c : comparators) {
            c.release();
        }
        comparators.clear();
        List<Lifecycle> retained = new ArrayList<>(environment);
        environment.clear();
        Options.release(retained);
    }

    /** Forgets a closed handle (its family stays). */
    void forget(ColumnFamilyHandle handle) {
        open.remove(handle.name(), handle);
    }

    /** Closes every open handle, the default family's too (the database is closing). */
    void closeAll() {
        for (ColumnFamilyHandle h : List.copyOf(open.values())) {
            h.closeHandle();
        }
    }

    /**
     * Creates a family in the database (which the caller has entered) and registers its handle. A
     * name the database has is refused here, as RocksDB refuses it, before the C call: engines
     * before 11.1 return their handle wrapper even when creation fails, with a field that may be
     * unset, which no C function can free safely (11.1 on return NULL). Any other failure on those
     * engines leaves that wrapper, a few bytes.
     */
    ColumnFamilyHandle create(String name, Options options) {
        return create(name, options, db::createFamily);
    }

    /** The C call that creates a family: (options, name, errptr) to the C API's handle wrapper. */
    @FunctionalInterface
    interface Creator {
        MemorySegment create(MemorySegment options, MemorySegment name, MemorySegment errptr);
    }

    /** {@link #create(String, Options)} through {@code creator}. */
    ColumnFamilyHandle create(String name, Options options, Creator creator) {
        if (names.contains(name)) {
            throw new RocksDBException("Invalid argument: Column family already exists");
        }
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment h = options.apply(o -> creator.create(o, cName, s.errptr));
            Native.check(s.errptr); // the wrapper of a failure, if any, is left (see above)
            ColumnFamilyHandle handle = add(new ColumnFamilyHandle(db, name, h));
            configured(handle, options);
            if (options.fromText) {
                learn(db.realPath); // the engine wrote a new OPTIONS file with the family in it
            }
            return handle;
        }
    }

    /**
     * Creates the family {@code name} in the database (which the caller has entered) from exported
     * files ({@code rocksdb_create_column_family_with_import}) and registers its handle.
     */
    ColumnFamilyHandle createWithImport(String name, Options options, ImportColumnFamilyOptions importOptions,
                                        ExportImportFilesMetaData metadata) {
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment h = options.apply(o -> importOptions.apply(i -> metadata.apply(m -> {
                Capabilities.require("rocksdb_create_column_family_with_import"); // after the arguments' checks
                return rocksdb_create_column_family_with_import(db.adminDb(), o, cName, i, m, s.errptr);
            })));
            Native.check(s.errptr); // on failure the C API frees its handle and returns NULL
            ColumnFamilyHandle handle = add(new ColumnFamilyHandle(db, name, h));
            configured(handle, options);
            learn(db.realPath);
            return handle;
        }
    }

    /**
     * Creates the families {@code names} in the database (which the caller has entered) with one
     * {@code rocksdb_create_column_families}, registering the handles of those RocksDB created
     * (all, or the ones before a failure), then reports a failure.
     */
    List<ColumnFamilyHandle> createAll(List<String> names, Options options) {
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocate(ADDRESS, names.size());
            for (int i = 0; i < names.size(); i++) {
                list.setAtIndex(ADDRESS, i, arena.allocateFrom(names.get(i)));
            }
            s.size.set(JAVA_LONG, 0, 0);
            MemorySegment handles = options.apply(o -> {
                Capabilities.require("rocksdb_create_column_families"); // after the options' check: closed ones refuse first
                return rocksdb_create_column_families(db.adminDb(), o, names.size(), list, s.size, s.errptr);
            });
            long n = Math.min(s.size.get(JAVA_LONG, 0), names.size());
            List<ColumnFamilyHandle> out = new ArrayList<>((int) n);
            try {
                MemorySegment array = handles.reinterpret(n * ADDRESS.byteSize());
                for (int i = 0; i < n; i++) {
                    ColumnFamilyHandle handle = add(new ColumnFamilyHandle(db, names.get(i), array.getAtIndex(ADDRESS, i)));
                    configured(handle, options);
                    out.add(handle);
                }
            } finally {
                if (handles.address() != 0) {
                    rocksdb_create_column_families_destroy(handles); // the array only: the handles are ours
                }
            }
            if (n > 0) {
                learn(db.realPath); // the engine wrote a new OPTIONS file with the families in it
            }
            Native.check(s.errptr);
            return List.copyOf(out);
        }
    }

    /**
     * Drops {@code family} of the database (which the caller has entered) while its handle closes (no
     * call uses it), with batches naming families held off.
     */
    void drop(ColumnFamilyHandle family) {
        dropLock.writeLock().lock();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_drop_column_family(db.adminDb(), family.ptr, s.errptr);
            Native.check(s.errptr);
            ids.remove(family.id());
            names.remove(family.name());
        } finally {
            dropLock.writeLock().unlock();
        }
    }

    /**
     * Refuses a batch that RocksDB would fail only while applying it (after logging it, which
     * leaves the database refusing writes until reopened): records made with another database's
     * handles or for column families the database does not have, merge records for families without
     * a merge operator, records for timestamped families, and range deletions that end before
     * they begin in their family's order. {@code records} is the batch's sealed buffer; the
     * caller holds {@link #dropLock} for reading if the batch names non-default families.
     */
    void checkBatch(WriteBatch batch, MemorySegment records) {
        Database handlesOf = batch.handlesOf();
        if (handlesOf != null && handlesOf != db) {
            throw new IllegalArgumentException("the batch holds records made with family handles of another database");
        }
        BitSet merges = batch.mergeFamilyIds();
        if (merges != null) {
            for (int id = merges.nextSetBit(0); id >= 0; id = merges.nextSetBit(id + 1)) {
                if (ids.contains(id) && !mergeIds.contains(id)) {
                    throw new IllegalArgumentException("the batch holds merge records for column family id " + id
                            + ", which has no merge operator");
                }
            }
        }
        BitSet named = batch.familyIds();
        if (named != null) {
            for (int id = named.nextSetBit(0); id >= 0; id = named.nextSetBit(id + 1)) {
                if (!ids.contains(id)) {
                    throw new IllegalArgumentException("the batch names column family id " + id + ", which the database does not have");
                }
            }
        }
        long size = batch.sealedSize();
        if (size > BatchFormat.HEADER && !timestampSizes.isEmpty()) {
            refuseTimestampedRecords(named, records.asSlice(0, size));
        }
        if (batch.rangeFamilyIds() != null) {
            BatchFormat.forEachRange(records.asSlice(0, size), (at, id, begin, end) ->
                    checkRangeOrder(id, begin, end, "the batch's range deletion at offset " + at));
        }
    }

    /**
     * Refuses an indexed batch with records for a family of another database or one dropped since
     * (RocksDB would fail while applying it, after logging it, and then refuse every write until
     * reopen), or records for the default family when that has user-defined timestamps (a key
     * shorter than one crashes the next flush). The caller holds {@link #dropLock} for reading if the batch names non-default families.
     */
    void checkBatch(WriteBatchWithIndex batch) {
        Set<ColumnFamilyHandle> named = batch.familyHandles();
        int tsSize = batch.writesDefaultFamily() ? timestampSize(db.defaultFamily) : 0;
        if (tsSize != 0) { // RocksDB would take each key's last bytes for its timestamp
            throw new IllegalArgumentException("the batch holds records for column family 'default', which has "
                    + tsSize + "-byte user-defined timestamps that the batch's records do not carry: write it with"
                    + " TimestampedDB");
        }
        for (ColumnFamilyHandle f : named) {
            if (f.db != db) {
                throw new IllegalArgumentException("the batch holds records for " + f + " of another database");
            }
            if (!ids.contains(f.id())) {
                throw new IllegalArgumentException("the batch holds records for " + f + ", which was dropped");
            }
        }
    }

    /**
     * Refuses a batch ({@code BatchFormat}'s records) with records for a family with user-defined
     * timestamps: RocksDB would store its keys without timestamps, unchecked. {@code named} is the
     * non-default families the batch names (null for none), which it tracks as it is built; only a
     * timestamped default family makes the records be read.
     */
    void refuseTimestampedRecords(BitSet named, MemorySegment batch) {
        if (timestampSizes.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, Integer> e : timestampSizes.entrySet()) {
            int id = e.getKey();
            if (id == 0 ? BatchFormat.families(batch).get(0) : named != null && named.get(id)) {
                throw new IllegalArgumentException("the batch holds records for column family " + nameOf(id) + " (id "
                        + id + "), which has " + e.getValue() + "-byte user-defined timestamps that a batch's records"
                        + " do not carry: write it with TimestampedDB");
            }
        }
    }

    /** The name of the open family with id {@code id}, quoted, or "?" if none is open. */
    private String nameOf(int id) {
        for (ColumnFamilyHandle h : open.values()) {
            if (h.id() == id) {
                return "'" + h.name() + "'";
            }
        }
        return "?";
    }
}
