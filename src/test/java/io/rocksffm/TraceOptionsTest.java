package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.TraceOptions.Operation;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace options as values, and tracing itself ({@link DatabaseAdmin#startTrace},
 * {@link DatabaseAdmin#endTrace}) checked against RocksDB: a trace is replayed by RocksDB's own
 * replayer into an empty database, which must end with the traced database's writes, and what the
 * options leave out must be missing from it.
 */
class TraceOptionsTest {
    @TempDir
    Path dir;

    @Test
    void valuesTheirCopiesAndChecks() {
        TraceOptions d = new TraceOptions();
        assertEquals(new TraceOptions(64L << 30, 1, Set.of(), false), d, "RocksDB's defaults");
        assertEquals(TraceOptions.DEFAULT_MAX_TRACE_FILE_SIZE, d.maxTraceFileSize());
        assertEquals(new TraceOptions(1000, 1, Set.of(), false), new TraceOptions(1000));
        TraceOptions t = d.withMaxTraceFileSize(5).withSamplingFrequency(3).withExcluded(EnumSet.of(Operation.GET))
                .withPreserveWriteOrder(true);
        assertEquals(new TraceOptions(5, 3, Set.of(Operation.GET), true), t);
        assertEquals(new TraceOptions(), d, "the copies left the original alone");
        Set<Operation> mutable = new HashSet<>(Set.of(Operation.WRITE));
        TraceOptions copied = d.withExcluded(mutable);
        mutable.add(Operation.MULTI_GET);
        assertEquals(Set.of(Operation.WRITE), copied.excluded(), "the set is copied");
        assertThrows(UnsupportedOperationException.class, () -> copied.excluded().add(Operation.GET));
        for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> new TraceOptions(bad));
            assertThrows(IllegalArgumentException.class, () -> d.withSamplingFrequency(bad));
        }
        assertThrows(NullPointerException.class, () -> d.withExcluded(null));
        Set<Operation> withNull = new HashSet<>();
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> d.withExcluded(withNull));
    }

    @Test
    void eachOperationsBitIsTheCApis() {
        RocksDB.engine();
        assertEquals(rocksdb_trace_filter_get(), Operation.GET.bit);
        assertEquals(rocksdb_trace_filter_write(), Operation.WRITE.bit);
        assertEquals(rocksdb_trace_filter_iterator_seek(), Operation.ITERATOR_SEEK.bit);
        assertEquals(rocksdb_trace_filter_iterator_seek_for_prev(), Operation.ITERATOR_SEEK_FOR_PREV.bit);
        assertEquals(rocksdb_trace_filter_multi_get(), Operation.MULTI_GET.bit);
        assertEquals(5, Operation.values().length, "every kind RocksDB 11.8.1's header names");
    }

    /** Writes and reads on {@code db}: every write of the test, and some reads. */
    private static void workload(RocksDB db) {
        for (int i = 0; i < 50; i++) {
            db.put(bytes("k" + i), bytes("v" + i));
            if (i % 7 == 0) {
                db.delete(bytes("k" + (i / 2)));
            }
            db.get(bytes("k" + (i / 3)));
        }
        try (WriteBatch batch = new WriteBatch().put(bytes("batch"), bytes("b")).delete(bytes("k1"));
             WriteOptions wo = new WriteOptions()) {
            db.write(wo, batch);
        }
    }

    /** Every key and value of {@code db}, in order. */
    private static List<String> contents(RocksDB db) {
        List<String> out = new ArrayList<>();
        db.forEach(ReadOptions.DEFAULT, (k, v) -> out.add(string(k.toArray(ValueLayout.JAVA_BYTE)) + "="
                + string(v.toArray(ValueLayout.JAVA_BYTE))));
        return out;
    }

    /** Replays {@code trace} into a new, empty database with RocksDB's own replayer; returns its contents. */
    private List<String> replayed(Path trace, String name) {
        try (RocksDB target = open(dir.resolve(name)); Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ADDRESS);
            MemorySegment replayer = rocksdb_new_default_replayer(target.db, MemorySegment.NULL, 0, MemorySegment.NULL,
                    MemorySegment.NULL, arena.allocateFrom(trace.toString()), err);
            assertEquals(0, err.get(ADDRESS, 0).address(), "the replayer opened the trace");
            try {
                rocksdb_replayer_prepare(replayer, err);
                assertEquals(0, err.get(ADDRESS, 0).address(), "the trace has RocksDB's header");
                rocksdb_replayer_replay(replayer, MemorySegment.NULL, err);
                assertEquals(0, err.get(ADDRESS, 0).address(), "the trace replays");
            } finally {
                rocksdb_replayer_destroy(replayer);
            }
            return contents(target);
        }
    }

    @Test
    void aTraceReplaysIntoAnEmptyDatabaseAsTheWritesWere() throws Exception {
        try (RocksDB db = open(dir.resolve("traced"))) {
            Path trace = dir.resolve("all.trace");
            if (!Gated.supported("rocksdb_start_trace", () -> db.startTrace(trace))) {
                assertFalse(Files.exists(trace));
                Gated.supported("rocksdb_end_trace", db::endTrace);
                return;
            }
            RocksDBException none = assertThrows(RocksDBException.class, db::endTrace, "no trace is running");
            assertEquals(RocksDBException.Code.IO_ERROR, none.code());
            db.startTrace(trace);
            workload(db);
            db.endTrace();
            db.put(bytes("untraced"), bytes("x"));
            assertEquals(RocksDBException.Code.IO_ERROR, assertThrows(RocksDBException.class, db::endTrace).code());
            List<String> expected = contents(db);
            expected.remove("untraced=x");
            assertEquals(50 - 8 - 1 + 1, expected.size(), expected.toString()); // 50 puts, 8 deletes, the batch's put and delete
            assertEquals(expected, replayed(trace, "replay-all"));

            // what the options leave out is not in the trace: no writes, or no room for any record
            try (RocksDB other = open(dir.resolve("traced-filtered"))) {
                Path noWrites = dir.resolve("no-writes.trace");
                other.startTrace(new TraceOptions().withExcluded(Set.of(Operation.WRITE)), noWrites);
                workload(other);
                other.endTrace();
                Path tiny = dir.resolve("tiny.trace");
                other.startTrace(new TraceOptions(1).withPreserveWriteOrder(true), tiny);
                workload(other);
                other.endTrace();
                assertTrue(Files.size(trace) > Files.size(noWrites), "writes make the bulk of the full trace");
                assertEquals(List.of(), replayed(noWrites, "replay-no-writes"));
                assertEquals(List.of(), replayed(tiny, "replay-tiny"));
            }
        }
    }

    @Test
    void badArgumentsAndAnUnwritablePath() {
        try (RocksDB db = open(dir.resolve("db"))) {
            assertThrows(NullPointerException.class, () -> db.startTrace(null, dir.resolve("t")));
            assertThrows(NullPointerException.class, () -> db.startTrace(new TraceOptions(), null));
            assertThrows(NullPointerException.class, () -> db.startTrace(null));
            assertThrows(IllegalArgumentException.class, () -> db.startTrace(Path.of("bad\0name")));
            if (!Gated.supported("rocksdb_start_trace", () -> db.startTrace(dir.resolve("t")))) {
                return;
            }
            db.startTrace(dir.resolve("t"));
            db.endTrace();
            RocksDBException e = assertThrows(RocksDBException.class,
                    () -> db.startTrace(dir.resolve("no-such-directory").resolve("t")));
            assertEquals(RocksDBException.Code.IO_ERROR, e.code(), e.getMessage());
            assertEquals(RocksDBException.Code.IO_ERROR, assertThrows(RocksDBException.class, db::endTrace).code(),
                    "a failed start leaves no trace running");
        }
    }

    /** Every kind of database traces: a transaction database through its base database. */
    @Test
    void transactionDatabasesTraceToo() throws Exception {
        try (TransactionDB tdb = TransactionDBTest.openTx(dir.resolve("t"));
             OptimisticTransactionDB odb = OptimisticTransactionDBTest.openOpt(dir.resolve("o"))) {
            for (Database db : List.of(tdb, odb)) {
                Path trace = dir.resolve(db.getClass().getSimpleName() + ".trace");
                if (!Gated.supported("rocksdb_start_trace", () -> db.startTrace(trace))) {
                    continue;
                }
                db.startTrace(trace);
                db.put(bytes("a"), bytes("1"));
                db.endTrace();
                assertTrue(Files.size(trace) > 0);
            }
        }
    }
}
