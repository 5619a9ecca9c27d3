package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;

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
 * The RocksDB 11 administration of an open database (a part of the database object): compacting
 * chosen files, verifying checksums, pausing background work and listing the write-ahead log.
 * Each call enters the database first (a closed one throws {@link IllegalStateException}) and
 * then requires its C function ({@link UnsupportedOperationException} on older engines).
 */
final class Maintenance {
    private Maintenance() {}

    /** {@code CompactFiles}' output path id meaning "the column family's first path". */
    private static final int DEFAULT_OUTPUT_PATH = -1;

    static List<Path> compactFiles(Database db, ColumnFamilyHandle family, CompactionOptions options,
                                   List<Path> inputFiles, int outputLevel) {
        return compact(db, family, options, inputFiles, outputLevel, false, (outputs, info) -> outputs);
    }

    static EventListener.CompactionJobInfo compactFilesWithJobInfo(Database db, ColumnFamilyHandle family,
                                                                   CompactionOptions options, List<Path> inputFiles,
                                                                   int outputLevel) {
        return compact(db, family, options, inputFiles, outputLevel, true,
                (outputs, info) -> EventListeners.copyJobInfo(info));
    }

    /** What a compaction returns, made from its output paths and its job info (NULL unless asked for). */
    @FunctionalInterface
    private interface Result<T> {
        T of(List<Path> outputs, MemorySegment info);
    }

    /** Compacts, with a job info for RocksDB to fill if {@code withInfo}, and returns {@code result}'s value. */
    private static <T> T compact(Database db, ColumnFamilyHandle family, CompactionOptions options,
                                 List<Path> inputFiles, int outputLevel, boolean withInfo, Result<T> result) {
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
            names[i] = Opening.cPath(Objects.requireNonNull(inputFiles.get(i), "inputFiles[" + i + "]"));
        }
        return db.guard.call(options, family, s -> {
            try (Arena arena = Arena.ofConfined()) {
                Capabilities.require("rocksdb_compact_files_cf");
                checkLiveTableFiles(db, inputFiles);
                MemorySegment list = arena.allocate(ADDRESS, names.length);
                for (int i = 0; i < names.length; i++) {
                    list.setAtIndex(ADDRESS, i, arena.allocateFrom(names[i]));
                }
                MemorySegment outputs = arena.allocate(ADDRESS);
                s.size.set(JAVA_LONG, 0, 0);
                MemorySegment info = withInfo ? EventListeners.createJobInfo() : MemorySegment.NULL;
                try {
                    rocksdb_compact_files_cf(db.adminDb(), family.ptr, options.ptr, list, names.length, outputLevel,
                            DEFAULT_OUTPUT_PATH, outputs, s.size, info, s.errptr);
                    Native.check(s.errptr);
                    return result.of(outputs(outputs, s.size.get(JAVA_LONG, 0)), info);
                } finally {
                    if (withInfo) {
                        EventListeners.destroyJobInfo(info);
                    }
                }
            }
        });
    }

    /**
     * Refuses an input of {@code compactFiles} that is not a live table file of {@code db}: RocksDB
     * reads only the number in a file's name, so a path into another database's directory would
     * compact this database's file of that number, and any other name would be read as file 0.
     * Accepted: a live file's bare name ({@code 000012.sst}), its name as {@link
     * DatabaseAdmin#liveFiles()} reports it ({@code /000012.sst}), or a path to it in the
     * database's directory, however spelled. (Whether it belongs to the family is RocksDB's check.)
     */
    private static void checkLiveTableFiles(Database db, List<Path> inputFiles) {
        Set<String> live = new HashSet<>();
        for (LiveFile f : FileAdmin.liveFiles(db)) {
            String name = f.name();
            live.add(name.substring(name.lastIndexOf('/') + 1));
        }
        for (Path p : inputFiles) {
            Path name = p.getFileName();
            String n = name == null ? "" : name.toString();
            if (!live.contains(n) || !n.endsWith(".sst")) {
                throw new IllegalArgumentException("compactFiles: " + quoted(p) + " is not a live table file of the "
                        + "database at " + db.path());
            }
            Path parent = p.getParent();
            if (parent != null && !p.toString().equals("/" + n) && !sameDirectory(parent, db.realPath)) {
                throw new IllegalArgumentException("compactFiles: " + quoted(p) + " is not in the directory of the "
                        + "database at " + db.path() + " (RocksDB would compact this database's " + n + ")");
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

    static void verifyChecksum(Database db, ReadOptions options) {
        ColumnFamilyHandle family = db.defaultFamily;
        CallGuard.Body<Void> verify = s -> {
            if (options == null) {
                Capabilities.require("rocksdb_verify_checksum");
                rocksdb_verify_checksum(db.adminDb(), s.errptr);
            } else {
                Capabilities.require("rocksdb_verify_checksum_with_options");
                rocksdb_verify_checksum_with_options(db.adminDb(), options.ptr, s.errptr);
            }
            Native.check(s.errptr);
            return null;
        };
        if (options == null) {
            db.guard.callFamily(family, verify);
        } else {
            db.guard.callRead(options, family, verify);
        }
    }

    /**
     * Pauses ({@code pause}) or continues the database's background work. Each pause counts as a
     * child of the database until its continue: a database closing while paused would wait
     * forever for its closing flush, so it refuses to close instead.
     */
    static void backgroundWork(Database db, boolean pause) {
        if (pause) {
            Callbacks.refuseWaiting("pauseBackgroundWork"); // it waits for the running jobs
        }
        db.guard.call(s -> {
            if (pause) {
                Capabilities.require("rocksdb_pause_background_work");
                db.lifecycle.addChild(); // before the pause: a close that has begun refuses it
                try {
                    rocksdb_pause_background_work(db.adminDb(), s.errptr);
                    Native.check(s.errptr);
                    db.backgroundPauses.incrementAndGet();
                } catch (RuntimeException | Error e) {
                    db.lifecycle.removeChild();
                    throw e;
                }
            } else {
                Capabilities.require("rocksdb_continue_background_work");
                rocksdb_continue_background_work(db.adminDb(), s.errptr);
                Native.check(s.errptr); // not paused: InvalidArgument, and no child to remove
                db.backgroundPauses.decrementAndGet();
                db.lifecycle.removeChild();
            }
            return null;
        });
    }

    /**
     * Refuses {@code call}, which waits for background work (a flush, a compaction), while the
     * database's background work is paused through it: RocksDB would wait until the work is
     * continued, which a program with one thread never does; whatever timeout the call has does
     * not cover that wait. (A pause that begins while such a call runs holds the call until its
     * continue, as RocksDB does.)
     *
     * @param call    the call, for the message
     * @param instead what the caller can do instead, for the message
     * @throws IllegalStateException while paused
     */
    static void refuseWhilePaused(Database db, String call, String instead) {
        int pauses = db.backgroundPauses.get();
        if (pauses > 0) {
            throw new IllegalStateException(call + " refused: the database's background work is paused ("
                    + pauses + " pauseBackgroundWork without its continueBackgroundWork), and it would wait for "
                    + "a flush or compaction that cannot run until then; " + instead);
        }
    }

    static List<WalFile> sortedWalFiles(Database db) {
        return db.guard.call(s -> {
            Capabilities.require("rocksdb_get_sorted_wal_files");
            MemorySegment files = rocksdb_get_sorted_wal_files(db.adminDb(), s.errptr);
            Native.check(s.errptr);
            try {
                long n = rocksdb_wal_files_count(files);
                List<WalFile> out = new ArrayList<>((int) n);
                for (long i = 0; i < n; i++) {
                    out.add(walFile(rocksdb_wal_files_get_wal_file(files, i)));
                }
                return List.copyOf(out);
            } finally {
                rocksdb_wal_files_destroy(files);
            }
        });
    }

    static WalFile currentWalFile(Database db) {
        return db.guard.call(s -> {
            Capabilities.require("rocksdb_get_current_wal_file");
            MemorySegment file = rocksdb_get_current_wal_file(db.adminDb(), s.errptr);
            Native.check(s.errptr);
            try {
                return walFile(file);
            } finally {
                rocksdb_wal_file_destroy(file);
            }
        });
    }

    private static WalFile walFile(MemorySegment f) {
        String name = rocksdb_wal_file_path_name(f).reinterpret(Long.MAX_VALUE).getString(0);
        return new WalFile(name, rocksdb_wal_file_log_number(f), WalFile.Type.of(rocksdb_wal_file_type(f)),
                rocksdb_wal_file_start_sequence(f), rocksdb_wal_file_size_file_bytes(f));
    }
}
