package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The marshalling of {@code rocksdb_load_latest_options}: reads the latest OPTIONS file of a
 * database and hands each {@code rocksdb_options_t} to the caller, who owns and destroys each
 * with {@code rocksdb_options_destroy}; the names and arrays are freed here.
 */
public final class OptionsFiles {
    private OptionsFiles() {}

    /** The options read: the database's, and each column family's with its name. */
    public record Loaded(MemorySegment dbOptions, List<String> names, List<MemorySegment> familyOptions) {}

    /**
     * Loads the latest options of the database at {@code path} (a C path), with the block cache
     * {@code cache} (a {@code rocksdb_cache_t*}, kept open by the caller during the call).
     *
     * @throws io.rocksffm.RocksDBException if there is no OPTIONS file, or it does not parse
     */
    public static Loaded loadLatest(String path, MemorySegment cache, boolean ignoreUnknownOptions) {
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment dbOptions = arena.allocate(ADDRESS);
            MemorySegment names = arena.allocate(ADDRESS);
            MemorySegment families = arena.allocate(ADDRESS);
            RocksDBC.rocksdb_load_latest_options(arena.allocateFrom(path), Envs.defaultEnv(), ignoreUnknownOptions,
                    cache, dbOptions, s.size, names, families, s.errptr);
            Native.check(s.errptr); // on failure the engine has set every output to NULL
            long n = s.size.get(JAVA_LONG, 0);
            MemorySegment nameArray = names.get(ADDRESS, 0).reinterpret(ADDRESS.byteSize() * n);
            MemorySegment familyArray = families.get(ADDRESS, 0).reinterpret(ADDRESS.byteSize() * n);
            List<String> outNames = new ArrayList<>();
            List<MemorySegment> outFamilies = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                outNames.add(CStrings.take(nameArray.getAtIndex(ADDRESS, i)));
                outFamilies.add(familyArray.getAtIndex(ADDRESS, i));
            }
            RocksDBC.rocksdb_free(nameArray);
            RocksDBC.rocksdb_free(familyArray);
            return new Loaded(dbOptions.get(ADDRESS, 0), List.copyOf(outNames), List.copyOf(outFamilies));
        }
    }
}
