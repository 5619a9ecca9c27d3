package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Compression;
import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import io.rocksffm.EventListener;
import io.rocksffm.RateLimiter;
import io.rocksffm.WriteBufferManager;
import io.rocksffm.internal.Capabilities;
import java.util.Locale;

/**
 * The bad input catalogue (docs/bad-inputs.md), opening and ownership: open modes and shared
 * resources, bad paths, locked and read-only databases, options refused at open; owners closed
 * with open children, objects of another database, iterators without an entry, streams and
 * forEach misused.
 */
class BadOpenAndOwnershipTest extends BadInputFixture {
    // ---- open modes and shared resources (issue 16) ------------------------------------------------

    /**
     * Writes to a secondary instance, catching up on a primary, a negative TTL, a secondary of a
     * missing database, bad rate limiter and write buffer manager settings: clear errors, and the
     * databases involved stay usable.
     */
    @Test
    void openModesAndSharedResourcesRefuseBadInputs() {
        Path primaryPath = dir.resolve("db");
        try (Options options = new Options();
             RocksDB secondary = RocksDB.openAsSecondary(primaryPath, dir.resolve("secondary"), options);
             WriteBatch batch = new WriteBatch().put(bytes("x"), bytes("1"))) {
            for (Executable write : List.<Executable>of(() -> secondary.put(bytes("a"), bytes("x")),
                    () -> secondary.delete(bytes("a")), () -> secondary.deleteRange(bytes("a"), bytes("b")),
                    () -> secondary.write(wo, batch), () -> secondary.createColumnFamily("cf", options),
                    () -> secondary.flush(true))) {
                RocksDBException e = assertThrows(RocksDBException.class, write);
                assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
            }
            assertEquals("1", string(secondary.get(bytes("a"))));
            RocksDBException e = assertThrows(RocksDBException.class, db::tryCatchUpWithPrimary);
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code());
            report("bad input: writes to a secondary: %s; catch up on a primary: %s",
                    assertThrows(RocksDBException.class, () -> secondary.put(bytes("a"), bytes("x"))).getMessage(),
                    e.getMessage());
            RocksDBException missing = assertThrows(RocksDBException.class,
                    () -> RocksDB.openAsSecondary(dir.resolve("missing"), dir.resolve("s2"), options));
            report("bad input: secondary of a missing database: %s", missing.getMessage());
            assertThrows(IllegalArgumentException.class, () -> RocksDB.openWithTtl(dir.resolve("ttl"), options, -1));
            assertThrows(IllegalArgumentException.class,
                    () -> RocksDB.openWithTtl(dir.resolve("ttl"), options, List.of(), Integer.MIN_VALUE));
            assertFalse(Files.exists(dir.resolve("ttl")), "nothing was created");
        }
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(0));
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(1, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> WriteBufferManager.create(-1, false));
        if (Capabilities.callable("rocksdb_write_buffer_manager_create")) {
            try (WriteBufferManager w = WriteBufferManager.create(0, false)) {
                assertThrows(IllegalStateException.class, () -> w.setBufferSize(1 << 20));
                assertThrows(IllegalArgumentException.class, () -> w.setBufferSize(0));
            }
        } else {
            try (Options options = new Options()) {
                assertThrows(UnsupportedOperationException.class,
                        () -> options.addEventListener(new EventListener() {}));
            }
            assertThrows(UnsupportedOperationException.class, () -> WriteBufferManager.create(1, false));
        }
        assertWritable();
    }

    // ---- paths and locks ------------------------------------------------------------------------------

    /** Paths that cannot hold a database: RocksDBException with RocksDB's code, or IllegalArgumentException. */
    @Test
    void badPathsAreRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        try (Options create = new Options().setCreateIfMissing(true); Options plain = new Options()) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.openReadOnly(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(file, create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(file.resolve("db"), create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(dir.resolve("n".repeat(300)), create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.listColumnFamilies(file, plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.listColumnFamilies(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> db.createCheckpoint(file.resolve("cp")));
            assertThrows(RocksDBException.class, () -> db.createCheckpoint(dir.resolve("db"))); // exists
            assertThrows(IllegalArgumentException.class, () -> RocksDB.open(Path.of("bad\0name"), create));
            open(dir.resolve("existing")).close();
            try (Options exclusive = new Options().setErrorIfExists(true)) {
                assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("existing"), exclusive));
            }
            // not bad: a name in any script works
            try (RocksDB unicode = RocksDB.open(dir.resolve("données-データ-🙂"), create)) {
                unicode.put(bytes("k"), bytes("v"));
            }
        }
        report("bad input: bad paths (missing, a file, under a file, too long, NUL, existing with error-if-exists, "
                + "checkpoint target existing or under a file): refused");
    }

    /** A database locked by this process or by another one: IO_ERROR; read-only opens still work. */
    @Test
    void lockedDatabasesAreRefused() throws Exception {
        RocksDBException e = assertCode(RocksDBException.Code.IO_ERROR, () -> open(dir.resolve("db")));
        assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("lock"), e.getMessage());
        Path other = dir.resolve("held");
        Process holder = new ProcessBuilder(javaCommand(ChildProbe.class, "hold-lock", other.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            var lines = holder.inputReader(StandardCharsets.UTF_8);
            assertEquals("READY", lines.readLine());
            RocksDBException byOther = assertCode(RocksDBException.Code.IO_ERROR, () -> open(other));
            assertTrue(byOther.getMessage().toLowerCase(Locale.ROOT).contains("lock"), byOther.getMessage());
            try (Options o = new Options(); RocksDB reader = RocksDB.openReadOnly(other, o)) {
                assertEquals("yes", string(reader.get(bytes("held"))));
            }
            holder.getOutputStream().close(); // let it close its database
            assertEquals("CLOSED", lines.readLine());
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        } finally {
            holder.destroyForcibly();
        }
        try (RocksDB mine = open(other)) {
            assertEquals("yes", string(mine.get(bytes("held"))));
        }
        report("bad input: locked database (by this process, by another process): IO_ERROR; read-only open works");
    }

    // ---- read-only databases ----------------------------------------------------------------------------

    /** Writes to a read-only database are refused with NOT_SUPPORTED; reads work. */
    @Test
    void writesToAReadOnlyDatabaseAreRefused() {
        try (Options o = new Options(); RocksDB readOnly = RocksDB.openReadOnly(dir.resolve("db"), o);
             WriteBatch b = new WriteBatch().put(bytes("k"), bytes("v"))) {
            assertTrue(readOnly.isReadOnly());
            List<Executable> calls = List.of(() -> readOnly.put(bytes("k"), bytes("v")), () -> readOnly.delete(bytes("a")),
                    () -> readOnly.deleteRange(bytes("a"), bytes("z")), () -> readOnly.write(wo, b),
                    () -> readOnly.flush(true), () -> readOnly.flushWal(true));
            for (Executable call : calls) {
                assertCode(RocksDBException.Code.NOT_SUPPORTED, call);
            }
            assertEquals("1", string(readOnly.get(bytes("a"))));
            readOnly.compactRange(); // RocksDB's C API drops this status: a silent no-op
            report("bad input: writes to a read-only database: %d calls refused with NOT_SUPPORTED; compactRange is "
                    + "silently ignored", calls.size());
        }
    }

    @Test
    void createColumnFamilyOnAReadOnlyDatabaseIsRefused() {
        try (Options o = new Options(); RocksDB readOnly = RocksDB.openReadOnly(dir.resolve("db"), o)) {
            assertThrows(RuntimeException.class, () -> readOnly.createColumnFamily("new", o));
        }
    }

    // ---- lifetimes, ownership, threads -------------------------------------------------------------------

    /** Owners refuse to close while what depends on them is open, and stay usable. */
    @Test
    void closingOwnersWithOpenChildrenIsRefused() {
        try (Options o = new Options()) {
            ColumnFamilyHandle family = db.createColumnFamily("f", o);
            RocksIterator onFamily = db.newIterator(family, ro);
            assertThrows(IllegalStateException.class, family::close);
            assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(family));
            onFamily.close();
            Snapshot s = db.getSnapshot();
            ReadOptions at = new ReadOptions().setSnapshot(s);
            RocksIterator it = db.newIterator(at);
            PinnedValue pv = db.getPinned(ro, heap("a"));
            assertThrows(IllegalStateException.class, db::close);
            assertThrows(IllegalStateException.class, at::close);
            assertThrows(IllegalStateException.class, s::close);
            assertThrows(IllegalStateException.class, () -> at.setIterateUpperBound(heap("z")));
            it.close();
            assertThrows(IllegalStateException.class, s::close, "the read options still use it");
            assertThrows(IllegalStateException.class, db::close, "snapshot and pinned value open");
            at.close();
            s.close();
            assertThrows(IllegalStateException.class, db::close, "pinned value open");
            assertEquals("1", string(pv.toByteArray()));
            pv.close();
            assertFalse(db.isClosed());
            assertWritable();
            db.dropColumnFamily(family);
            assertTrue(family.isClosed());
            assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(family));
            assertThrows(IllegalStateException.class, () -> db.put(family, wo, heap("k"), heap("v")));
        }
        report("bad input: closing a database/options/snapshot/family with open children: IllegalStateException, "
                + "objects stay usable");
    }

    /** Objects of another database are refused with IllegalArgumentException. */
    @Test
    void objectsOfAnotherDatabaseAreRefused() {
        try (RocksDB other = open(dir.resolve("other")); Snapshot foreign = other.getSnapshot();
             ReadOptions at = new ReadOptions().setSnapshot(foreign)) {
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            ColumnFamilyHandle otherCf = other.defaultColumnFamily();
            List<Executable> calls = List.of(() -> db.get(at, heap("a"), arena.allocate(8)), () -> db.getPinned(at, heap("a")),
                    () -> db.newIterator(at).close(), () -> db.multiGet(cf, at, new MemorySegment[] {heap("a")},
                            new MemorySegment[1], new long[1], new RocksDBException[1], false),
                    () -> db.put(otherCf, wo, heap("k"), heap("v")), () -> db.get(otherCf, ro, heap("a"), arena.allocate(8)),
                    () -> db.newIterator(otherCf, ro).close(), () -> db.flush(otherCf, true),
                    () -> db.dropColumnFamily(otherCf), () -> db.getProperty(otherCf, "rocksdb.stats"));
            for (Executable call : calls) {
                assertThrows(IllegalArgumentException.class, call);
            }
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamily(cf), "the default family");
            at.setSnapshot(null);
            report("bad input: snapshots and family handles of another database: %d calls refused with "
                    + "IllegalArgumentException; dropping the default family too", calls.size());
        }
    }

    /** Iterator moves and reads without a current entry throw IllegalStateException. */
    @Test
    void iteratorWithoutAnEntryRefusesReads() {
        try (RocksIterator it = db.newIterator(ro)) {
            List<Executable> calls = List.of(it::next, it::prev, it::key, it::value, it::keyBytes, it::valueBytes,
                    () -> it.key(arena.allocate(8)), it::uncheckedKey, it::uncheckedValue);
            for (Executable call : calls) {
                assertThrows(IllegalStateException.class, call, "not positioned yet");
            }
            it.seekToLast();
            it.next();
            assertFalse(it.isValid());
            for (Executable call : calls) {
                assertThrows(IllegalStateException.class, call, "past the end");
            }
            it.status();
            it.seekToFirst();
            assertArrayEquals(bytes("a"), it.keyBytes());
        }
        report("bad input: iterator moves/reads without a current entry: IllegalStateException");
    }

    /** Streams and forEach misused: wrong thread, left open, a throwing or closing action. */
    @Test
    void streamAndForEachMisuse() throws Exception {
        Stream<Map.Entry<byte[], byte[]>> stream = db.stream(ro);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> CompletableFuture.supplyAsync(stream::count).get(30, TimeUnit.SECONDS));
        assertInstanceOf(WrongThreadException.class, e.getCause());
        assertThrows(IllegalStateException.class, db::close, "an open stream holds an iterator");
        stream.close();
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class, () -> db.forEach(ro, (k, v) -> {
            throw boom;
        })));
        assertThrows(IllegalStateException.class, () -> db.forEach(ro, (k, v) -> db.close()));
        assertFalse(db.isClosed());
        report("bad input: stream on another thread: WrongThreadException; unclosed stream blocks close; forEach "
                + "action throwing or closing the database: propagated / IllegalStateException, iterator closed");
    }

    /** Options the engine cannot honour are refused when the database opens. */
    @Test
    void unsupportedCompressionIsRefusedAtOpen() {
        try (Options o = new Options().setCreateIfMissing(true).setCompression(Compression.XPRESS)) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("xpress"), o));
        }
        report("bad input: XPRESS compression (Windows only): INVALID_ARGUMENT at open");
    }
}
