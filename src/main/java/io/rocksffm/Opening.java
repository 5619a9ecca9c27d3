package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Opening databases: the marshalling of paths, family names and options for {@code rocksdb_open*}. */
final class Opening {
    private Opening() {}

    /** Makes the database object of an opened database handle and its family handles. */
    @FunctionalInterface
    interface Maker<T> {
        T make(MemorySegment db, Path path, boolean readOnly, List<String> names, MemorySegment handles);
    }

    /** The shape of {@code rocksdb_open_column_families} and its kin of other kinds of database. */
    @FunctionalInterface
    interface Opener {
        MemorySegment open(MemorySegment options, MemorySegment name, int n, MemorySegment names,
                           MemorySegment familyOptions, MemorySegment handles, MemorySegment errptr);
    }

    /**
     * The C function that opens a database with its column families: the arguments every
     * {@code rocksdb_open*_column_families} shares, and an arena for the mode's own ones.
     */
    @FunctionalInterface
    interface OpenCall {
        MemorySegment open(MemorySegment options, MemorySegment name, int n, MemorySegment names,
                           MemorySegment familyOptions, MemorySegment handles, MemorySegment errptr, Arena arena);
    }

    /** Opens the database at {@code path} with {@code families} (the default one added if absent). */
    static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families, boolean readOnly, Maker<RocksDB> maker) {
        OpenCall call = readOnly
                ? (o, nm, n, names, fo, h, err, arena) ->
                        n == 1 && SINGLE_READ_ONLY && fo.getAtIndex(ADDRESS, 0).address() == o.address()
                                ? openReadOnlyDefault(o, nm, h, err)
                                : rocksdb_open_for_read_only_column_families(o, nm, n, names, fo, h,
                                        NativeObject.flag(false), err)
                : (o, nm, n, names, fo, h, err, arena) -> rocksdb_open_column_families(o, nm, n, names, fo, h, err);
        return open(path, options, families, readOnly, call, maker);
    }

    /**
     * Opens the database at {@code path} as a secondary instance keeping its own files (info logs)
     * in {@code secondaryPath}; it is read-only and follows the primary with
     * {@code rocksdb_try_catch_up_with_primary}.
     */
    static RocksDB openAsSecondary(Path path, Path secondaryPath, Options options, List<ColumnFamilyDescriptor> families,
                                   Maker<RocksDB> maker) {
        String secondary = CStrings.path(secondaryPath);
        return open(path, options, families, true, (o, nm, n, names, fo, h, err, arena) ->
                rocksdb_open_as_secondary_column_families(o, nm, arena.allocateFrom(secondary), n, names, fo, h, err),
                maker);
    }

    /**
     * Opens the database at {@code path} for reading and writing with a time to live of
     * {@code ttlSeconds} for every family (0: entries never expire).
     */
    static RocksDB openWithTtl(Path path, Options options, List<ColumnFamilyDescriptor> families, int ttlSeconds,
                               Maker<RocksDB> maker) {
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("ttl must be >= 0 seconds (0: no expiry): " + ttlSeconds);
        }
        return open(path, options, families, false, (o, nm, n, names, fo, h, err, arena) -> {
            MemorySegment ttls = arena.allocate(JAVA_INT, n);
            for (int i = 0; i < n; i++) {
                ttls.setAtIndex(JAVA_INT, i, ttlSeconds);
            }
            return rocksdb_open_column_families_with_ttl(o, nm, n, names, fo, h, ttls, err);
        }, maker);
    }

    /** Opens a database of any kind at {@code path} with {@code opener}. */
    static <T extends Database> T open(Path path, Options options, List<ColumnFamilyDescriptor> families, Opener opener,
                                       boolean readOnly, Maker<T> maker) {
        return open(path, options, families, readOnly,
                (o, nm, n, names, fo, h, err, arena) -> opener.open(o, nm, n, names, fo, h, err), maker);
    }

    private static <T extends Database> T open(Path path, Options options, List<ColumnFamilyDescriptor> families,
                                               boolean readOnly, OpenCall call, Maker<T> maker) {
        CStrings.path(path); // null and NUL checks
        // the real path: RocksDB refuses a second writer of a directory by its path string
        String name = CStrings.path(OpenDatabases.key(path));
        Objects.requireNonNull(options, "options");
        List<ColumnFamilyDescriptor> all = new ArrayList<>(Objects.requireNonNull(families, "families"));
        if (all.stream().noneMatch(d -> d.name().equals(ColumnFamilyHandle.DEFAULT))) {
            all.add(0, new ColumnFamilyDescriptor(ColumnFamilyHandle.DEFAULT, options));
        }
        int n = all.size();
        try (Scratch s = Scratch.enterFirst(options.lifecycle); Arena arena = Arena.ofConfined()) {
            MemorySegment names = arena.allocate(ADDRESS, n);
            MemorySegment familyOptions = arena.allocate(ADDRESS, n);
            MemorySegment handles = arena.allocate(ADDRESS, n);
            List<String> familyNames = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ColumnFamilyDescriptor d = all.get(i);
                s.enter(d.options().lifecycle);
                names.setAtIndex(ADDRESS, i, arena.allocateFrom(d.name()));
                familyOptions.setAtIndex(ADDRESS, i, d.options().ptr);
                familyNames.add(d.name());
            }
            MemorySegment db = call.open(options.ptr, arena.allocateFrom(name), n, names, familyOptions, handles,
                    s.errptr, arena);
            Native.check(s.errptr);
            T opened = maker.make(db, path, readOnly, familyNames, handles);
            for (ColumnFamilyDescriptor d : all) {
                opened.families.configured(opened.families.get(d.name()), d.options());
            }
            // an open for writing wrote an OPTIONS file: what the engine runs with, which only
            // differs from what the Java setters recorded where text made some of the options
            if (!readOnly && (options.fromText || all.stream().anyMatch(d -> d.options().fromText))) {
                opened.families.learn(opened.realPath);
            }
            opened.families.retainEnvironment(options);
            if (options.callsJava()) {
                opened.lifecycle.guardCallbacks(); // listeners of the database's own options
            }
            WarmUp.afterOpen();
            return opened;
        }
    }

    /**
     * Whether a read-only open of the default family alone goes through {@code rocksdb_open_for_read_only}
     * (RocksDB's {@code DB::OpenForReadOnly(options, name)}, as rocksdbjni's {@code openReadOnly} does)
     * rather than the column-family form: the engine then serves a fully compacted database (one
     * level, {@code max_open_files = -1}, the default) from its faster compacted-DB read path, and
     * falls back to the ordinary read-only database otherwise. It needs the default family's handle
     * from {@code rocksdb_get_default_column_family_handle} (RocksDB 9.x, gated).
     */
    static final boolean SINGLE_READ_ONLY = Capabilities.callable("rocksdb_get_default_column_family_handle");

    /**
     * Opens read-only with the default family only; its handle goes to {@code handles[0]}. Returns
     * NULL with the error in {@code errptr} if RocksDB refuses, as the column-family form does.
     */
    private static MemorySegment openReadOnlyDefault(MemorySegment options, MemorySegment cName,
                                                     MemorySegment handles, MemorySegment errptr) {
        MemorySegment db = rocksdb_open_for_read_only(options, cName, NativeObject.flag(false), errptr);
        if (errptr.get(ADDRESS, 0).address() != 0 || db.address() == 0) {
            return MemorySegment.NULL;
        }
        MemorySegment handle = rocksdb_get_default_column_family_handle(db);
        if (handle.address() == 0) {
            rocksdb_close(db);
            throw new IllegalStateException("RocksDB returned NULL creating the default family's handle");
        }
        handles.setAtIndex(ADDRESS, 0, handle); // an immortal handle: destroying it frees only the wrapper
        return db;
    }

    /** The names of the column families of the database at {@code path}. */
    static List<String> listColumnFamilies(Path path, Options options) {
        String name = CStrings.path(path);
        Objects.requireNonNull(options, "options");
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment list = options.apply(o -> rocksdb_list_column_families(o, cName, s.size, s.errptr));
            if (s.errptr.get(ADDRESS, 0).address() != 0) {
                if (list.address() != 0) { // the C API returns an (empty) array even on failure
                    rocksdb_list_column_families_destroy(list, 0);
                }
                Native.check(s.errptr);
            }
            long n = s.size.get(JAVA_LONG, 0);
            try {
                MemorySegment entries = list.reinterpret(ADDRESS.byteSize() * n);
                List<String> out = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    out.add(entries.getAtIndex(ADDRESS, i).reinterpret(Long.MAX_VALUE).getString(0));
                }
                return out;
            } finally {
                rocksdb_list_column_families_destroy(list, n);
            }
        }
    }

    /**
     * {@link RocksDB#destroyDB} ({@code rocksdb_destroy_db}) or {@link RocksDB#repairDB}
     * ({@code rocksdb_repair_db}); refused while this process has a database open there (a read-only
     * or secondary one holds no lock RocksDB would see).
     */
    static void destroyOrRepair(Path path, Options options, boolean destroy) {
        CStrings.path(path); // refuses a NUL character
        Objects.requireNonNull(options, "options");
        if (OpenDatabases.isOpen(path)) {
            throw new IllegalStateException("a database is open at " + path + ": close it before "
                    + (destroy ? "destroying" : "repairing") + " it");
        }
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(OpenDatabases.key(path).toString());
            options.use(o -> {
                if (destroy) {
                    rocksdb_destroy_db(o, cName, s.errptr);
                } else {
                    rocksdb_repair_db(o, cName, s.errptr);
                }
            });
            Native.check(s.errptr);
        }
    }
}
