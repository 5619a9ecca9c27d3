package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Upcalls;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction filters in Java: keep, remove, change; the factory's context; failures; lifetimes. */
class CompactionFilterTest {
    @TempDir
    Path dir;

    static String text(MemorySegment s) {
        return new String(s.toArray(ValueLayout.JAVA_BYTE));
    }

    /** Removes keys starting with "del", upper-cases values of keys starting with "up". */
    static final CompactionFilter FILTER = (level, key, value, out) -> {
        String k = text(key);
        if (k.startsWith("del")) {
            return CompactionFilter.Decision.REMOVE;
        }
        if (k.startsWith("up")) {
            out.set(bytes(text(value).toUpperCase()));
            return CompactionFilter.Decision.CHANGE_VALUE;
        }
        return CompactionFilter.Decision.KEEP;
    };

    static Map<String, String> load(RocksDB db) {
        Map<String, String> expect = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            String p = i % 3 == 0 ? "del" : i % 3 == 1 ? "up" : "keep";
            db.put(bytes(p + i), bytes("value" + i));
            if (!p.equals("del")) {
                expect.put(p + i, p.equals("up") ? ("VALUE" + i) : ("value" + i));
            }
        }
        return expect;
    }

    static Map<String, String> all(RocksDB db) {
        Map<String, String> out = new HashMap<>();
        db.forEach(ReadOptions.DEFAULT, (k, v) -> out.put(text(k), text(v)));
        return out;
    }

    @Test
    void decisionsAreVisibleAfterCompactionAndNothingElseIsLost() {
        try (Options o = new Options().setCreateIfMissing(true).setCompactionFilter(FILTER);
             RocksDB db = RocksDB.open(dir, o)) {
            Map<String, String> expect = load(db);
            db.flush(true);
            assertEquals(300, all(db).size(), "a filter runs only when a compaction rewrites entries");
            db.compactRange();
            assertEquals(expect, all(db));
        }
    }

    @Test
    void theFactorySeesTheCompactionsKind() {
        List<CompactionFilterFactory.Context> contexts = new CopyOnWriteArrayList<>();
        CompactionFilterFactory factory = new CompactionFilterFactory() {
            @Override
            public String name() {
                return "test.Factory";
            }

            @Override
            public CompactionFilter create(Context context) {
                contexts.add(context);
                return FILTER;
            }
        };
        int before = Upcalls.liveCount();
        try (Options o = new Options().setCreateIfMissing(true).setCompactionFilterFactory(factory);
             RocksDB db = RocksDB.open(dir, o)) {
            Map<String, String> expect = load(db);
            db.flush(true);
            db.compactRange();
            assertEquals(expect, all(db));
            assertFalse(contexts.isEmpty());
            assertTrue(contexts.get(contexts.size() - 1).manualCompaction());
            assertTrue(contexts.get(contexts.size() - 1).fullCompaction());
        }
        assertEquals(before, Upcalls.liveCount(), "factory and per-compaction filters were released");
    }

    /** Automatic compactions on RocksDB's threads run Java filters too. */
    @Test
    void backgroundCompactionsRunTheFilter() throws Exception {
        try (Options o = new Options().setCreateIfMissing(true).setCompactionFilter(FILTER)
                .setWriteBufferSize(64 << 10);
             RocksDB db = RocksDB.open(dir, o)) {
            byte[] pad = new byte[1000];
            for (int round = 0; round < 8; round++) {
                for (int i = 0; i < 100; i++) {
                    db.put(bytes("del" + round + "-" + i), pad);
                }
                db.flush(true);
            }
            for (int t = 0; t < 200 && all(db).size() == 800; t++) {
                Thread.sleep(50); // level-0 compaction triggers at 4 files
            }
            assertTrue(all(db).size() < 800, "a background compaction removed entries");
        }
    }

    @Test
    void aThrowingFilterKeepsEverything() {
        CompactionFilter throwing = (level, key, value, out) -> {
            throw new IllegalStateException("filter failure");
        };
        CompactionFilter lazy = (level, key, value, out) -> CompactionFilter.Decision.CHANGE_VALUE; // sets none
        for (CompactionFilter f : List.of(throwing, lazy)) {
            long failures = Upcalls.failureCount();
            Path d = dir.resolve("f" + failures);
            try (Options o = new Options().setCreateIfMissing(true).setCompactionFilter(f);
                 RocksDB db = RocksDB.open(d, o)) {
                db.put(bytes("a"), bytes("1"));
                db.put(bytes("del"), bytes("2"));
                db.flush(true);
                db.compactRange();
                assertEquals(Map.of("a", "1", "del", "2"), all(db));
            }
            assertTrue(Upcalls.failureCount() > failures);
        }
    }

    @Test
    void aThrowingOrNullFactoryMeansNoFilter() {
        for (boolean fail : new boolean[] {true, false}) {
            CompactionFilterFactory factory = new CompactionFilterFactory() {
                @Override
                public String name() {
                    return "test.Bad";
                }

                @Override
                public CompactionFilter create(Context context) {
                    if (fail) {
                        throw new IllegalStateException("factory failure");
                    }
                    return null;
                }
            };
            try (Options o = new Options().setCreateIfMissing(true).setCompactionFilterFactory(factory);
                 RocksDB db = RocksDB.open(dir.resolve("x" + fail), o)) {
                db.put(bytes("del"), bytes("1"));
                db.flush(true);
                db.compactRange();
                assertEquals("1", string(db.get(bytes("del"))));
            }
        }
    }
}
