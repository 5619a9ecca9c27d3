package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import io.rocksffm.internal.PrefetchPolicy;
import java.util.LinkedHashMap;
import java.util.function.Consumer;

/**
 * The bad input catalogue (docs/bad-inputs.md), segments: read-only segments, segments of closed
 * arenas and of other threads' arenas, and views used after their owner closed or their iterator
 * moved.
 */
class BadSegmentInputTest extends BadInputFixture {
    private MemorySegment seg(String s) {
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes(s));
    }

    // ---- read-only segments -------------------------------------------------------------------------

    /** Read-only segments are refused where rocksffm would write into them, accepted as inputs. */
    @Test
    void readOnlySegmentsAreRefusedAsOutputsAndAcceptedAsInputs() {
        MemorySegment roNative = seg("ro-key").asReadOnly();
        MemorySegment roHeap = heap("ro-value").asReadOnly();
        MemorySegment roOut = arena.allocate(16).asReadOnly();
        // inputs
        db.put(wo, roNative, roHeap);
        assertEquals(8, db.get(ro, roNative, arena.allocate(16)));
        try (WriteBatch b = new WriteBatch().put(roNative, roHeap).delete(roHeap).deleteRange(roHeap, roHeap)) {
            db.write(wo, b);
            try (WriteBatch copy = WriteBatch.fromBytes(b.data())) { // data() is itself read-only
                assertTrue(b.data().isReadOnly());
                db.write(wo, copy);
            }
        }
        try (ReadOptions bounded = new ReadOptions().setIterateLowerBound(roNative).setIterateUpperBound(roHeap)) {
            try (RocksIterator it = db.newIterator(bounded)) {
                it.seek(roNative);
                assertTrue(it.isValid());
            }
        }
        // outputs
        assertThrows(IllegalArgumentException.class, () -> db.get(ro, roNative, roOut));
        assertThrows(IllegalArgumentException.class, () -> db.multiGet(db.defaultColumnFamily(), ro,
                new MemorySegment[] {roNative}, new MemorySegment[] {roOut}, new long[1], new RocksDBException[1], false));
        try (RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            assertThrows(IllegalArgumentException.class, () -> it.key(roOut));
            assertThrows(IllegalArgumentException.class, () -> it.value(roOut));
            assertThrows(IllegalArgumentException.class, () -> it.key().set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                    "iterator views are read-only");
        }
        try (PinnedValue pv = db.getPinned(ro, roNative)) {
            assertThrows(IllegalArgumentException.class, () -> pv.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                    "pinned values are read-only");
        }
        try (WriteBatch b = new WriteBatch().put(bytes("k"), bytes("v"))) {
            assertThrows(IllegalArgumentException.class, () -> b.data().set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        }
        report("bad input: read-only segments: 3 output parameters refuse them (IllegalArgumentException), 3 views "
                + "refuse writes (IllegalArgumentException from the JDK), inputs accept them");
    }

    // ---- segments of closed arenas, of other threads' arenas ------------------------------------------

    /** Every call given a segment of a closed arena throws IllegalStateException, and leaves its objects usable. */
    @Test
    void segmentsOfClosedArenasAreRefused() {
        Arena dead = Arena.ofConfined();
        MemorySegment gone = dead.allocate(32); // 32 bytes: long enough to be taken for a batch
        dead.close();
        int n = refuseForeignSegments(gone, IllegalStateException.class);
        report("bad input: segments of closed arenas: %d calls refused with IllegalStateException", n);
    }

    /** Every call given a segment of another thread's confined arena throws WrongThreadException. */
    @Test
    void segmentsOfAnotherThreadsArenaAreRefused() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<MemorySegment> foreign = new CompletableFuture<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (Arena a = Arena.ofConfined()) {
                foreign.complete(a.allocate(32));
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            int n = refuseForeignSegments(foreign.get(10, TimeUnit.SECONDS), WrongThreadException.class);
            report("bad input: segments of another thread's confined arena: %d calls refused with WrongThreadException", n);
        } finally {
            done.countDown();
            owner.join();
        }
    }

    private int refuseForeignSegments(MemorySegment bad, Class<? extends Throwable> expected) {
        MemorySegment k = heap("a");
        MemorySegment out = arena.allocate(16);
        ColumnFamilyHandle cf = db.defaultColumnFamily();
        int n = 0;
        try (WriteBatch batch = new WriteBatch().put(k, k); RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            long batchSize = batch.dataSize();
            List<Executable> calls = List.of(
                    () -> db.put(wo, bad, k), () -> db.put(wo, k, bad), () -> db.get(ro, bad, out), () -> db.get(ro, k, bad),
                    () -> db.delete(wo, bad), () -> db.deleteRange(wo, bad, k), () -> db.deleteRange(wo, k, bad),
                    () -> db.getPinned(ro, bad),
                    () -> db.multiGet(cf, ro, new MemorySegment[] {bad}, new MemorySegment[] {out}, new long[1], new RocksDBException[1], false),
                    () -> db.multiGet(cf, ro, new MemorySegment[] {k}, new MemorySegment[] {bad}, new long[1], new RocksDBException[1], false),
                    () -> db.compactRange(cf, bad, null), () -> db.compactRange(cf, null, bad),
                    () -> db.approximateSizes(cf, new MemorySegment[] {bad}, new MemorySegment[] {k}),
                    () -> it.seek(bad), () -> it.seekForPrev(bad), () -> it.key(bad), () -> it.value(bad),
                    () -> batch.put(bad, k), () -> batch.put(k, bad), () -> batch.delete(bad), () -> batch.singleDelete(bad),
                    () -> batch.deleteRange(bad, bad), () -> WriteBatch.fromBytes(bad));
            for (Executable call : calls) {
                assertThrows(expected, call, "call #" + n);
                n++;
            }
            assertEquals(1, batch.count());
            assertEquals(batchSize, batch.dataSize());
            db.write(wo, batch);
            assertTrue(it.isValid());
            it.next();
        }
        assertWritable();
        return n;
    }

    @Test
    void unreadableBoundLeavesTheReadOptionsIntact() {
        Arena dead = Arena.ofConfined();
        MemorySegment gone = dead.allocate(8);
        dead.close();
        ReadOptions bounded = new ReadOptions().setIterateUpperBound(heap("b"));
        try {
            assertThrows(IllegalStateException.class, () -> bounded.setIterateUpperBound(gone));
            assertThrows(IllegalStateException.class, () -> bounded.setIterateLowerBound(gone)); // no bound before: fine
            try (RocksIterator it = db.newIterator(bounded)) {
                it.seekToFirst();
                assertArrayEquals(bytes("a"), it.keyBytes());
                it.next();
                assertFalse(it.isValid(), "the upper bound \"b\" still applies");
            }
        } finally {
            bounded.close(); // must not throw
        }
    }

    /** Views handed out by iterators, pinned values, batches and forEach die with their owner. */
    @Test
    void viewsDieWithTheirOwner() {
        MemorySegment key;
        MemorySegment value;
        MemorySegment unchecked;
        try (RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            key = it.key();
            value = it.value();
            unchecked = it.uncheckedValue();
            assertArrayEquals(value.toArray(ValueLayout.JAVA_BYTE), unchecked.toArray(ValueLayout.JAVA_BYTE));
            assertArrayEquals(key.toArray(ValueLayout.JAVA_BYTE), it.uncheckedKey().toArray(ValueLayout.JAVA_BYTE));
        }
        assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> value.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> unchecked.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment pinned;
        try (PinnedValue pv = db.getPinned(ro, heap("a"))) {
            pinned = pv.segment();
        }
        assertThrows(IllegalStateException.class, () -> pinned.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment data;
        MemorySegment beforeGrowth;
        try (WriteBatch b = new WriteBatch(16)) {
            beforeGrowth = b.data();
            for (int i = 0; i < 100; i++) {
                b.put(bytes("key" + i), bytes("value" + i));
            }
            assertThrows(IllegalStateException.class, () -> beforeGrowth.get(ValueLayout.JAVA_BYTE, 0),
                    "a view of the buffer before it grew");
            data = b.data();
        }
        assertThrows(IllegalStateException.class, () -> data.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment[] kept = new MemorySegment[1];
        db.forEach(ro, (k, v) -> kept[0] = k);
        assertThrows(IllegalStateException.class, () -> kept[0].get(ValueLayout.JAVA_BYTE, 0));
        report("bad input: views used after their owner closed (iterator key/value, pinned value, batch data before "
                + "growth and after close, forEach key): IllegalStateException");
    }

    /**
     * A key()/value() view used after its iterator moved (every kind of move, served directly and
     * from a prefetch run, forward past the end too) throws IllegalStateException; the view of the
     * new entry works, and copies taken before the move keep their bytes.
     */
    @Test
    void viewsDieWhenTheirIteratorMoves() {
        // a prefetch trial's runs start START_AFTER + TRIAL entries after a seek and hold at least TRIAL entries
        int inRun = PrefetchPolicy.START_AFTER + PrefetchPolicy.TRIAL + 50;
        for (int i = 0; i < inRun + 300; i++) {
            db.put(bytes(String.format("m%04d", i)), bytes("value" + i));
        }
        Map<String, Consumer<RocksIterator>> moves = new LinkedHashMap<>();
        moves.put("next", RocksIterator::next);
        moves.put("prev", RocksIterator::prev);
        moves.put("seek", it -> it.seek(bytes("m0100")));
        moves.put("seekForPrev", it -> it.seekForPrev(bytes("m0100")));
        moves.put("seekToFirst", RocksIterator::seekToFirst);
        moves.put("seekToLast", RocksIterator::seekToLast);
        int checked = 0;
        for (long prefetch : new long[] {0, 64, 4096}) {
            for (int walk : new int[] {0, 1, inRun}) { // entries walked after the seek: direct, then in a run
                for (Map.Entry<String, Consumer<RocksIterator>> move : moves.entrySet()) {
                    try (RocksIterator it = db.newIterator(ro.setPrefetchBytes(prefetch))) {
                        it.seek(bytes("m0000"));
                        for (int i = 0; i < walk; i++) {
                            it.next();
                        }
                        MemorySegment key = it.key();
                        MemorySegment value = it.value();
                        MemorySegment keyAgain = it.key();
                        byte[] keyCopy = it.keyBytes();
                        assertArrayEquals(keyCopy, key.toArray(ValueLayout.JAVA_BYTE));
                        assertArrayEquals(keyCopy, keyAgain.toArray(ValueLayout.JAVA_BYTE));
                        String where = move.getKey() + " after " + walk + " entries, prefetch " + prefetch;
                        move.getValue().accept(it);
                        assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0), where);
                        assertThrows(IllegalStateException.class, () -> value.get(ValueLayout.JAVA_BYTE, 0), where);
                        assertThrows(IllegalStateException.class, () -> keyAgain.toArray(ValueLayout.JAVA_BYTE),
                                where);
                        assertEquals(String.format("m%04d", walk), string(keyCopy), where);
                        if (it.isValid()) {
                            assertArrayEquals(it.keyBytes(), it.key().toArray(ValueLayout.JAVA_BYTE), where);
                        }
                        checked++;
                    }
                }
            }
        }
        try (RocksIterator it = db.newIterator(ro.setPrefetchBytes(4096))) { // walking off the end
            it.seekToLast();
            MemorySegment last = it.value();
            it.next();
            assertFalse(it.isValid());
            assertThrows(IllegalStateException.class, () -> last.get(ValueLayout.JAVA_BYTE, 0));
        }
        report("bad input: iterator key()/value() views used after the iterator moved (" + checked
                + " move/position/prefetch cases, and past the end): IllegalStateException");
    }
}
