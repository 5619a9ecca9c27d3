package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** Ingestion of table files into a database's column family (a part of the database object). */
final class Ingestion {
    private Ingestion() {}

    static void ingest(Database db, ColumnFamilyHandle family, List<Path> files, IngestExternalFileOptions options) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(files, "files");
        Objects.requireNonNull(options, "options");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no files to ingest");
        }
        String[] names = new String[files.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = Opening.cPath(Objects.requireNonNull(files.get(i), "files[" + i + "]"));
        }
        if (options.allowBlockingFlush()) {
            Maintenance.refuseWhilePaused(db, "ingestExternalFile allowing a blocking flush",
                    "ingest with setAllowBlockingFlush(false) (files that overlap the memtable then fail at once), "
                            + "or continue the work first");
        }
        db.guard.call(options, family, s -> {
            if (db.families.timestampSize(family) != 0) {
                Capabilities.requireSince("rocksdb_ingest_external_file_cf", "10.0", "ingestion into a family with"
                        + " user-defined timestamps reads a file's keys unchecked (an engine built with assertions aborts"
                        + " on a key shorter than the timestamp; 10.0 is the oldest engine tested to refuse such a file)");
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment list = arena.allocate(ADDRESS, names.length);
                for (int i = 0; i < names.length; i++) {
                    list.setAtIndex(ADDRESS, i, arena.allocateFrom(names[i]));
                }
                rocksdb_ingest_external_file_cf(db.adminDb(), family.ptr, list, names.length, options.ptr, s.errptr);
                Native.check(s.errptr);
                return null;
            }
        });
    }
}
