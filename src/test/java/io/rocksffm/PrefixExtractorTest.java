package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Upcalls;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prefix extractors: built-in and Java, prefix bloom, prefix-same-as-start and total-order seeks. */
class PrefixExtractorTest {
    @TempDir
    Path dir;

    /** The prefix is everything up to and including the first ':' (keys without one: no prefix). */
    static final class UpToColon implements PrefixExtractor {
        @Override
        public String name() {
            return "test.UpToColon";
        }

        @Override
        public boolean inDomain(MemorySegment key) {
            return colon(key) >= 0;
        }

        @Override
        public long prefixLength(MemorySegment key) {
            return colon(key) + 1;
        }

        static long colon(MemorySegment key) {
            for (long i = 0; i < key.byteSize(); i++) {
                if (key.get(ValueLayout.JAVA_BYTE, i) == ':') {
                    return i;
                }
            }
            return -1;
        }
    }

    static List<String> scan(RocksDB db, ReadOptions ro, String seek) {
        List<String> out = new ArrayList<>();
        try (RocksIterator it = db.newIterator(ro)) {
            for (it.seek(bytes(seek)); it.isValid(); it.next()) {
                out.add(string(it.keyBytes()));
            }
        }
        return out;
    }

    void check(PrefixExtractor extractor, String seek, List<String> inPrefix) {
        Path d = dir.resolve(Integer.toString(System.identityHashCode(extractor)));
        try (Options o = new Options().setCreateIfMissing(true).setPrefixExtractor(extractor)
                .setMemtablePrefixBloomRatio(0.1).setBloomFilter(10);
             RocksDB db = RocksDB.open(d, o);
             ReadOptions same = new ReadOptions().setPrefixSameAsStart(true);
             ReadOptions total = new ReadOptions().setTotalOrderSeek(true)) {
            List<String> keys = List.of("aa:1", "aa:2", "ab:1", "abc:9", "b:1", "bb:1", "bb:2");
            for (String k : keys) {
                db.put(bytes(k), bytes("v"));
            }
            for (boolean flushed : new boolean[] {false, true}) {
                if (flushed) {
                    db.flush(true);
                }
                assertEquals(inPrefix, scan(db, same, seek), extractor.name() + " flushed=" + flushed);
                assertEquals(keys.stream().filter(k -> k.compareTo(seek) >= 0).toList(), scan(db, total, seek));
                for (String k : keys) {
                    assertEquals("v", string(db.get(bytes(k))), k);
                }
                assertNull(db.get(bytes("aa:3")));
            }
        }
    }

    @Test
    void fixedPrefixInCxx() {
        check(PrefixExtractor.fixed(2), "aa:", List.of("aa:1", "aa:2"));
        assertEquals("rocksdb.FixedPrefix.2", PrefixExtractor.fixed(2).name());
    }

    @Test
    void cappedPrefixInJava() {
        check(PrefixExtractor.capped(3), "abc", List.of("abc:9")); // "ab:1" has the prefix "ab:"
        PrefixExtractor c = PrefixExtractor.capped(3);
        assertEquals(2, c.prefixLength(MemorySegment.ofArray(bytes("ab"))));
        assertEquals(3, c.prefixLength(MemorySegment.ofArray(bytes("abcd"))));
    }

    @Test
    void userDefinedInJava() {
        check(new UpToColon(), "bb:", List.of("bb:1", "bb:2"));
    }

    @Test
    void noopInCxx() {
        check(PrefixExtractor.noop(), "aa:1", List.of("aa:1"));
    }

    @Test
    void builtInsRefuseBadLengths() {
        assertThrows(IllegalArgumentException.class, () -> PrefixExtractor.fixed(0));
        assertThrows(IllegalArgumentException.class, () -> PrefixExtractor.capped(-1));
    }

    /** A throwing extractor: no crash; keys outside the domain, or whole-key prefixes; nothing lost. */
    @Test
    void aThrowingExtractorDoesNotCrashOrLoseData() {
        AtomicBoolean throwDomain = new AtomicBoolean(true);
        PrefixExtractor bad = new PrefixExtractor() {
            @Override
            public String name() {
                return "test.Bad";
            }

            @Override
            public boolean inDomain(MemorySegment key) {
                if (throwDomain.get()) {
                    throw new IllegalStateException("inDomain failure");
                }
                return true;
            }

            @Override
            public long prefixLength(MemorySegment key) {
                throw new IllegalStateException("transform failure");
            }
        };
        long failures = Upcalls.failureCount();
        int before = Upcalls.liveCount();
        try (Options o = new Options().setCreateIfMissing(true).setPrefixExtractor(bad).setBloomFilter(10)
                .setMemtablePrefixBloomRatio(0.1);
             RocksDB db = RocksDB.open(dir, o)) {
            for (int i = 0; i < 50; i++) {
                db.put(bytes("k" + i), bytes("v" + i));
            }
            db.flush(true);
            throwDomain.set(false); // now transform is called, and throws: whole key as prefix
            for (int i = 0; i < 50; i++) {
                assertEquals("v" + i, string(db.get(bytes("k" + i))));
            }
            db.compactRange();
            assertEquals("v7", string(db.get(bytes("k7"))));
        }
        assertTrue(Upcalls.failureCount() > failures);
        assertEquals(before, Upcalls.liveCount());
    }
}
