package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Compacting chosen table files ({@code CompactFiles}): the checks of the inputs and the downcall,
 * given the engine handle. {@link Database#compactFiles} enters the database, family and options
 * and calls these.
 */
final class FileCompaction {
    private FileCompaction() {}

    /** {@code CompactFiles}' output path id meaning "the column family's first path". */
    private static final int DEFAULT_OUTPUT_PATH = -1;

    /** What a compaction returns, made from its output paths and its job info (NULL unless asked for). */
    @FunctionalInterface
    interface Result<T> {
        T of(List<Path> outputs, MemorySegment info);
    }

    /** Checks the arguments of a compaction and returns the input files' C paths. */
    static String[] inputNames(ColumnFamilyHandle family, CompactionOptions options, List<Path> inputFiles,
                               int outputLevel) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(inputFiles, "inputFiles");
        if (inputFiles.isEmpty()) {
            throw new IllegalArgumentException("no files to compact");
        }
        if (outputLevel < 0) {
            throw new IllegalArgumentException("output level must be >= 0: " + outputLevel);
        }
        String[] names = new String[inputFiles.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = CStrings.path(Objects.requireNonNull(inputFiles.get(i), "inputFiles[" + i + "]"));
        }
        return names;
    }

    /**
     * Compacts {@code names} of {@code family} in {@code db} (the caller has entered them and the
     * options), with a job info for RocksDB to fill if {@code withInfo}, and returns {@code result}'s
     * value.
     */
    static <T> T compact(MemorySegment db, MemorySegment family, MemorySegment options, String[] names,
                         int outputLevel, boolean withInfo, Result<T> result, Scratch s) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocate(ADDRESS, names.length);
            for (int i = 0; i < names.length; i++) {
                list.setAtIndex(ADDRESS, i, arena.allocateFrom(names[i]));
            }
            MemorySegment outputs = arena.allocate(ADDRESS);
            s.size.set(JAVA_LONG, 0, 0);
            MemorySegment info = withInfo ? EventListeners.createJobInfo() : MemorySegment.NULL;
            try {
                rocksdb_compact_files_cf(db, family, options, list, names.length, outputLevel, DEFAULT_OUTPUT_PATH,
                        outputs, s.size, info, s.errptr);
                Native.check(s.errptr);
                return result.of(outputs(outputs, s.size.get(JAVA_LONG, 0)), info);
            } finally {
                if (withInfo) {
                    EventListeners.destroyJobInfo(info);
                }
            }
        }
    }

    /**
     * Refuses an input of {@code compactFiles} that is not one of the {@code live} table files of
     * the database at {@code path} ({@code realPath} being its real path): RocksDB reads only the
     * number in a file's name, so a path into another database's directory would compact this
     * database's file of that number, and any other name would be read as file 0. Accepted: a live
     * file's bare name ({@code 000012.sst}), its name as {@link DatabaseAdmin#liveFiles()} reports
     * it ({@code /000012.sst}), or a path to it in the database's directory, however spelled.
     * (Whether it belongs to the family is RocksDB's check.)
     */
    static void checkLiveTableFiles(List<LiveFile> live, Path path, Path realPath, List<Path> inputFiles) {
        Set<String> names = new HashSet<>();
        for (LiveFile f : live) {
            String name = f.name();
            names.add(name.substring(name.lastIndexOf('/') + 1));
        }
        for (Path p : inputFiles) {
            Path name = p.getFileName();
            String n = name == null ? "" : name.toString();
            if (!names.contains(n) || !n.endsWith(".sst")) {
                throw new IllegalArgumentException("compactFiles: " + quoted(p) + " is not a live table file of the "
                        + "database at " + path);
            }
            Path parent = p.getParent();
            if (parent != null && !p.toString().equals("/" + n) && !sameDirectory(parent, realPath)) {
                throw new IllegalArgumentException("compactFiles: " + quoted(p) + " is not in the directory of the "
                        + "database at " + path + " (RocksDB would compact this database's " + n + ")");
            }
        }
    }

    private static String quoted(Path p) {
        return "\"" + p + "\"";
    }

    private static boolean sameDirectory(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** The paths in RocksDB's array of output names (freed here). */
    private static List<Path> outputs(MemorySegment outputs, long n) {
        MemorySegment array = outputs.get(ADDRESS, 0);
        if (array.address() == 0) {
            return List.of();
        }
        try {
            MemorySegment entries = array.reinterpret(n * ADDRESS.byteSize());
            List<Path> out = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                out.add(Path.of(entries.getAtIndex(ADDRESS, i).reinterpret(Long.MAX_VALUE).getString(0)));
            }
            return List.copyOf(out);
        } finally {
            rocksdb_compact_files_output_file_names_destroy(array, n);
        }
    }
}
