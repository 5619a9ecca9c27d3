package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

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

    /** The path as the text of a C string: absolute, without NUL characters. */
    static String cPath(Path path) {
        String name = Objects.requireNonNull(path, "path").toAbsolutePath().toString();
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL character: " + path);
        }
        return name;
    }

    /** Makes the database object of an opened {@code rocksdb_t} and its family handles. */
    @FunctionalInterface
    interface Maker {
        RocksDB make(MemorySegment db, Path path, boolean readOnly, List<String> names, MemorySegment handles);
    }

    /** Opens the database at {@code path} with {@code families} (the default one added if absent). */
    static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families, boolean readOnly, Maker maker) {
        String name = cPath(path);
        Objects.requireNonNull(options, "options");
        List<ColumnFamilyDescriptor> all = new ArrayList<>(Objects.requireNonNull(families, "families"));
        if (all.stream().noneMatch(d -> d.name().equals(ColumnFamilyHandle.DEFAULT))) {
            all.add(0, new ColumnFamilyDescriptor(ColumnFamilyHandle.DEFAULT, options));
        }
        int n = all.size();
        List<NativeObject> entered = new ArrayList<>();
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment names = arena.allocate(ADDRESS, n);
            MemorySegment familyOptions = arena.allocate(ADDRESS, n);
            MemorySegment handles = arena.allocate(ADDRESS, n);
            List<String> familyNames = new ArrayList<>();
            options.lifecycle.enter();
            entered.add(options);
            for (int i = 0; i < n; i++) {
                ColumnFamilyDescriptor d = all.get(i);
                d.options().lifecycle.enter();
                entered.add(d.options());
                names.setAtIndex(ADDRESS, i, arena.allocateFrom(d.name()));
                familyOptions.setAtIndex(ADDRESS, i, d.options().ptr);
                familyNames.add(d.name());
            }
            MemorySegment db;
            if (readOnly && n == 1 && all.get(0).options() == options && SINGLE_READ_ONLY) {
                db = openReadOnlyDefault(options, arena.allocateFrom(name), handles, s);
            } else {
                db = readOnly
                        ? rocksdb_open_for_read_only_column_families(options.ptr, arena.allocateFrom(name), n, names,
                                familyOptions, handles, NativeObject.flag(false), s.errptr)
                        : rocksdb_open_column_families(options.ptr, arena.allocateFrom(name), n, names, familyOptions,
                                handles, s.errptr);
                Native.check(s.errptr);
            }
            return maker.make(db, path, readOnly, familyNames, handles);
        } finally {
            for (NativeObject o : entered) {
                o.lifecycle.exit();
            }
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

    /** Opens read-only with the default family only; its handle goes to {@code handles[0]}. */
    private static MemorySegment openReadOnlyDefault(Options options, MemorySegment cName, MemorySegment handles,
                                                     Scratch s) {
        MemorySegment db = rocksdb_open_for_read_only(options.ptr, cName, NativeObject.flag(false), s.errptr);
        Native.check(s.errptr);
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
        String name = cPath(path);
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
}
