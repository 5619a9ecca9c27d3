package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects orphaned by a finished thread (issue 37, case 11): an iterator (with and without a
 * prefetch buffer) or a pinned value left open by a thread that has ended can be closed by any
 * thread, and its database, options and family then close; while the owner lives, other threads
 * still get {@link WrongThreadException}.
 */
class OrphanTest {
    @TempDir
    Path dir;

    @Test
    void objectsLeftOpenByAFinishedThreadCanBeClosedAndTheirDatabaseToo() throws Exception {
        try (Options o = new Options().setCreateIfMissing(true)) {
            for (boolean virtual : new boolean[] {false, true}) {
                RocksDB db = RocksDB.open(dir.resolve("db-" + virtual), o);
                ReadOptions ro = new ReadOptions();
                db.put(bytes("k"), bytes("v"));
                AtomicReference<RocksIterator> plain = new AtomicReference<>();
                AtomicReference<RocksIterator> prefetching = new AtomicReference<>();
                AtomicReference<PinnedValue> pinned = new AtomicReference<>();
                CountDownLatch made = new CountDownLatch(1);
                CountDownLatch end = new CountDownLatch(1);
                Runnable orphaner = () -> {
                    RocksIterator it = db.newIterator(ro);
                    it.seekToFirst();
                    it.value(); // a view of the current entry, left open too
                    plain.set(it);
                    RocksIterator run = db.newIterator(ro.setPrefetchBytes(1 << 16));
                    run.seekToFirst();
                    prefetching.set(run);
                    pinned.set(db.getPinned(ro, MemorySegment.ofArray(bytes("k"))));
                    made.countDown();
                    try {
                        end.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                };
                Thread owner = virtual ? Thread.ofVirtual().start(orphaner) : Thread.ofPlatform().start(orphaner);
                made.await();
                assertThrows(WrongThreadException.class, () -> plain.get().close(), "the owner lives");
                assertThrows(WrongThreadException.class, () -> pinned.get().close(), "the owner lives");
                assertThrows(IllegalStateException.class, db::close, "children are open");
                end.countDown();
                owner.join();
                assertThrows(IllegalStateException.class, db::close, "children are still open");
                plain.get().close();
                prefetching.get().close();
                pinned.get().close();
                pinned.get().close(); // idempotent
                assertTrue(plain.get().isClosed() && prefetching.get().isClosed() && pinned.get().isClosed());
                assertThrows(WrongThreadException.class, () -> plain.get().seekToFirst(),
                        "only close is allowed from another thread");
                ro.close();
                db.close();
                assertTrue(db.isClosed());
            }
            try (RocksDB db = RocksDB.open(dir.resolve("db-false"), o)) { // closed natively: the lock is free
                assertEquals("v", string(db.get(bytes("k"))));
            }
        }
    }
}
