package io.rocksffm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the javadoc of the types that open, read and write a database, run; each block
 * between "javadoc:NAME" markers is quoted by a {@code {@snippet id="NAME"}} ({@link JavadocExamplesTest}).
 */
class ReadWriteExamplesTest {
    @TempDir
    Path dir;

    @Test
    void overview() {
        Path path = dir.resolve("overview");
        // --- javadoc:overview begin
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(path, options)) {
            db.put("hello".getBytes(UTF_8), "world".getBytes(UTF_8));
            byte[] value = db.get("hello".getBytes(UTF_8));   // null when absent

            try (Arena arena = Arena.ofConfined(); ReadOptions read = new ReadOptions()) {
                MemorySegment key = arena.allocateFrom(ValueLayout.JAVA_BYTE, "hello".getBytes(UTF_8));
                MemorySegment out = arena.allocate(64);
                long length = db.get(read, key, out);     // -1 when absent; more than 64: out was too small
                // --- javadoc:overview end
                assertEquals("world", new String(value, UTF_8));
                assertEquals(5, length);
                assertEquals("world", new String(out.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), UTF_8));
                // --- javadoc:overview begin
            }
        }
        // --- javadoc:overview end
    }

    @Test
    void rocksDB() {
        Path path = dir.resolve("db");
        // --- javadoc:RocksDB begin
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(path, options)) {
            db.put("user:1".getBytes(UTF_8), "alice".getBytes(UTF_8));
            byte[] name = db.get("user:1".getBytes(UTF_8));   // "alice"; null when absent
            db.delete("user:1".getBytes(UTF_8));
            // --- javadoc:RocksDB end
            assertEquals("alice", new String(name, UTF_8));
            assertNull(db.get("user:1".getBytes(UTF_8)));
            // --- javadoc:RocksDB begin
        }
        // --- javadoc:RocksDB end
    }

    @Test
    void options() {
        Path path = dir.resolve("options");
        // --- javadoc:Options begin
        try (Options options = new Options().setCreateIfMissing(true)
                     .setBlockCacheSize(64L << 20).setBloomFilter(10);   // 64 MiB cache; 10 bits per key
             RocksDB db = RocksDB.open(path, options)) {
            // RocksDB copied the options: closing them now would not affect db
            // --- javadoc:Options end
            assertEquals(64L << 20, options.blockCacheSize());
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            assertEquals("v", new String(db.get("k".getBytes(UTF_8)), UTF_8));
            // --- javadoc:Options begin
        }
        // --- javadoc:Options end
    }

    @Test
    void writeOptionsAndBatches() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("writes"), options)) {
            // --- javadoc:WriteOptions begin
            try (WriteOptions durable = new WriteOptions().setSync(true)) {   // fsync the log before returning
                db.put(durable, "balance".getBytes(UTF_8), "100".getBytes(UTF_8));
            }
            // --- javadoc:WriteOptions end
            // --- javadoc:WriteBatch begin
            try (WriteBatch batch = new WriteBatch(); WriteOptions write = new WriteOptions()) {
                batch.put("a".getBytes(UTF_8), "1".getBytes(UTF_8))
                     .put("b".getBytes(UTF_8), "2".getBytes(UTF_8))
                     .delete("balance".getBytes(UTF_8));
                db.write(write, batch);   // all or nothing
                batch.clear();            // reusable: keeps its buffer
            }
            // --- javadoc:WriteBatch end
            assertNull(db.get("balance".getBytes(UTF_8)));
            assertEquals("2", new String(db.get("b".getBytes(UTF_8)), UTF_8));
            // --- javadoc:WriteBatchWithIndex begin
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
                 ReadOptions read = new ReadOptions(); WriteOptions write = new WriteOptions()) {
                batch.put("a".getBytes(UTF_8), "10".getBytes(UTF_8));
                // reads see the batch's writes over the database's data: a is "10", b "2"
                byte[] a = batch.getFromBatchAndDB(db, read, "a".getBytes(UTF_8));
                byte[] b = batch.getFromBatchAndDB(db, read, "b".getBytes(UTF_8));
                db.write(write, batch);
                // --- javadoc:WriteBatchWithIndex end
                assertEquals("10", new String(a, UTF_8));
                assertEquals("2", new String(b, UTF_8));
                // --- javadoc:WriteBatchWithIndex begin
            }
            // --- javadoc:WriteBatchWithIndex end
            assertEquals("10", new String(db.get("a".getBytes(UTF_8)), UTF_8));
        }
    }

    @Test
    void batchReads() {
        List<String> merged = new ArrayList<>();
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("batchreads"), options)) {
            db.put("a".getBytes(UTF_8), "1".getBytes(UTF_8)).put("c".getBytes(UTF_8), "3".getBytes(UTF_8));
            // --- javadoc:BatchReads begin
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex(true); ReadOptions read = new ReadOptions()) {
                batch.put("b".getBytes(UTF_8), "2".getBytes(UTF_8)).delete("a".getBytes(UTF_8));
                byte[] b = batch.getFromBatch(options, "b".getBytes(UTF_8));     // "2": the batch alone
                byte[] a = batch.getFromBatchAndDB(db, read, "a".getBytes(UTF_8));   // null: the batch deletes it
                try (RocksIterator it = batch.newIteratorWithBase(db, read)) {   // the batch over the database
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        merged.add(new String(it.keyBytes(), UTF_8));   // "b", "c"
                    }
                }
                // --- javadoc:BatchReads end
                assertEquals("2", new String(b, UTF_8));
                assertNull(a);
                // --- javadoc:BatchReads begin
            }
            // --- javadoc:BatchReads end
            assertEquals(List.of("b", "c"), merged);
            assertEquals("1", new String(db.get("a".getBytes(UTF_8)), UTF_8), "the batch was not written");
            assertNull(db.get("b".getBytes(UTF_8)));
        }
    }

    @Test
    void timestampedDB() {
        Path path = dir.resolve("versions");
        // --- javadoc:TimestampedDB begin
        try (Options options = new Options().setCreateIfMissing(true)
                     .setComparator(TimestampedComparator.bytewiseU64());   // 8-byte timestamps
             RocksDB db = RocksDB.open(path, options);
             ReadOptions asOf = new ReadOptions()) {
            TimestampedDB versions = TimestampedDB.of(db);
            ColumnFamilyHandle family = db.defaultColumnFamily();
            versions.put(family, "price".getBytes(UTF_8), Timestamps.u64(1), "10".getBytes(UTF_8));
            versions.put(family, "price".getBytes(UTF_8), Timestamps.u64(3), "12".getBytes(UTF_8));
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(2)));   // read as of time 2
            TimestampedDB.Versioned price = versions.get(family, asOf, "price".getBytes(UTF_8));
            // price.value() is "10", price.timestamp() the 1 it was written at
            // --- javadoc:TimestampedDB end
            assertEquals("10", new String(price.value(), UTF_8));
            assertEquals(1, Timestamps.u64(price.timestamp()));
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(3)));
            assertEquals("12", new String(versions.get(family, asOf, "price".getBytes(UTF_8)).value(), UTF_8));
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(0)));
            assertNull(versions.get(family, asOf, "price".getBytes(UTF_8)), "nothing before time 1");
            RocksDBException plain = assertThrows(RocksDBException.class, () -> db.get("price".getBytes(UTF_8)));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, plain.code(), "a read without a timestamp");
            // --- javadoc:TimestampedDB begin
        }
        // --- javadoc:TimestampedDB end
    }

    @Test
    void timestamps() {
        long millis = System.currentTimeMillis();
        try (Options options = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64());
             RocksDB db = RocksDB.open(dir.resolve("u64"), options);
             ReadOptions asOf = new ReadOptions()) {
            TimestampedDB versions = TimestampedDB.of(db);
            ColumnFamilyHandle family = db.defaultColumnFamily();
            byte[] key = "k".getBytes(UTF_8);
            // --- javadoc:Timestamps begin
            byte[] now = Timestamps.u64(System.currentTimeMillis());   // 8 bytes, little-endian: EncodeU64Ts
            versions.put(family, key, now, "v".getBytes(UTF_8));
            asOf.setTimestamp(MemorySegment.ofArray(now));
            long writtenAt = Timestamps.u64(versions.get(family, asOf, key).timestamp());   // back to a number
            // --- javadoc:Timestamps end
            assertTrue(writtenAt >= millis && writtenAt <= System.currentTimeMillis(), millis + " <= " + writtenAt);
            assertArrayEquals(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(writtenAt).array(), now);
            assertEquals(Timestamps.U64_SIZE, now.length);
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(writtenAt - 1)));
            assertNull(versions.get(family, asOf, key), "not yet written a millisecond before");
        }
    }

    @Test
    void readsIteratorsSnapshots() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("reads"), options)) {
            for (String k : List.of("order:1", "order:2", "user:1", "user:2", "user:3")) {
                db.put(k.getBytes(UTF_8), k.toUpperCase().getBytes(UTF_8));
            }
            List<String> users = new ArrayList<>();
            // --- javadoc:RocksIterator begin
            try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(read)) {
                for (it.seek("user:".getBytes(UTF_8)); it.isValid(); it.next()) {
                    byte[] key = it.keyBytes();   // a copy; it.key() is a view valid until the next move
                    if (!new String(key, UTF_8).startsWith("user:")) {
                        break;
                    }
                    users.add(new String(it.valueBytes(), UTF_8));
                }
                it.status();                      // throws if the scan stopped on an error
            }
            // --- javadoc:RocksIterator end
            assertEquals(List.of("USER:1", "USER:2", "USER:3"), users);
            List<String> orders = new ArrayList<>();
            // --- javadoc:ReadOptions begin
            try (ReadOptions read = new ReadOptions()           // only keys in [order:, order;)
                         .setIterateLowerBound(MemorySegment.ofArray("order:".getBytes(UTF_8)))
                         .setIterateUpperBound(MemorySegment.ofArray("order;".getBytes(UTF_8)))
                         .setFillCache(false);                 // a one-off scan: keep the cache for hot data
                 RocksIterator it = db.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    orders.add(new String(it.keyBytes(), UTF_8));
                }
            }
            // --- javadoc:ReadOptions end
            assertEquals(List.of("order:1", "order:2"), orders);
            // --- javadoc:Snapshot begin
            try (Snapshot snapshot = db.getSnapshot();
                 ReadOptions atSnapshot = new ReadOptions().setSnapshot(snapshot)) {
                db.put("user:1".getBytes(UTF_8), "changed".getBytes(UTF_8));
                byte[] before = db.get(atSnapshot, "user:1".getBytes(UTF_8));  // the value when it was taken
                byte[] now = db.get("user:1".getBytes(UTF_8));                 // "changed"
                // --- javadoc:Snapshot end
                assertEquals("USER:1", new String(before, UTF_8));
                assertEquals("changed", new String(now, UTF_8));
                // --- javadoc:Snapshot begin
            }
            // --- javadoc:Snapshot end
            // --- javadoc:PinnedValue begin
            try (ReadOptions read = new ReadOptions();
                 PinnedValue pinned = db.getPinned(read, MemorySegment.ofArray("user:2".getBytes(UTF_8)))) {
                if (pinned != null) {                   // null when absent
                    MemorySegment value = pinned.segment();   // RocksDB's memory, read-only, no copy
                    long length = value.byteSize();           // valid until pinned.close()
                    // --- javadoc:PinnedValue end
                    assertEquals("USER:2", new String(value.toArray(ValueLayout.JAVA_BYTE), UTF_8));
                    assertEquals(6, length);
                    // --- javadoc:PinnedValue begin
                }
            }
            // --- javadoc:PinnedValue end
        }
    }

    @Test
    void familiesAndErrors() {
        Path path = dir.resolve("families");
        try (Options options = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.open(path, options)) {
                db.createColumnFamily("users", options);
            }
            // --- javadoc:ColumnFamilyHandle begin
            List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor("default", options),
                    new ColumnFamilyDescriptor("users", options));
            try (RocksDB db = RocksDB.open(path, options, families);
                 WriteOptions write = new WriteOptions()) {
                ColumnFamilyHandle users = db.columnFamily("users");   // owned by db: closed with it
                db.put(users, write, "1".getBytes(UTF_8), "alice".getBytes(UTF_8));
                byte[] alice = db.get(users, "1".getBytes(UTF_8));     // "alice"
                byte[] none = db.get("1".getBytes(UTF_8));             // null: not in the default family
                // --- javadoc:ColumnFamilyHandle end
                assertEquals("alice", new String(alice, UTF_8));
                assertNull(none);
                // --- javadoc:ColumnFamilyHandle begin
            }
            // --- javadoc:ColumnFamilyHandle end
        }
        RocksDBException.Code code = null;
        Path missing = dir.resolve("missing");
        // --- javadoc:RocksDBException begin
        try (Options options = new Options();              // create-if-missing off
             RocksDB db = RocksDB.open(missing, options)) {
            // ...
        } catch (RocksDBException e) {
            code = e.code();   // INVALID_ARGUMENT: the database does not exist
        }
        // --- javadoc:RocksDBException end
        assertEquals(RocksDBException.Code.INVALID_ARGUMENT, code);
    }

    // --- javadoc:Writes begin
    // One method for every write surface: a database, a transaction, a batch
    static <T extends Writes<T>> T putUser(Writes<T> target, int id, String name) {
        return target.put(("user:" + id).getBytes(UTF_8), name.getBytes(UTF_8));
    }
    // putUser(db, 1, "alice"); putUser(batch, 2, "bob"); putUser(tx, 3, "carol");
    // --- javadoc:Writes end

    @Test
    void surfaces() {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions txDbOptions = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(dir.resolve("surfaces"), options, txDbOptions);
             WriteOptions write = new WriteOptions();
             WriteBatch batch = new WriteBatch();
             Transaction tx = db.beginTransaction(write)) {
            assertSame(db, putUser(db, 1, "alice"));
            assertSame(batch, putUser(batch, 2, "bob"));
            assertSame(tx, putUser(tx, 3, "carol"));
            db.write(write, batch);
            tx.commit();
            assertEquals(List.of("alice", "bob", "carol"), db.multiGetAsList(List.of("user:1".getBytes(UTF_8),
                    "user:2".getBytes(UTF_8), "user:3".getBytes(UTF_8))).stream().map(v -> new String(v, UTF_8)).toList());
        }
    }

    @Test
    void readsAndAdministration() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("admin"), options)) {
            db.put("a".getBytes(UTF_8), "1".getBytes(UTF_8));
            db.put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
            // --- javadoc:KeyValueReads begin
            // values: "1" and null (absent)
            List<byte[]> values = db.multiGetAsList(List.of("a".getBytes(UTF_8), "x".getBytes(UTF_8)));
            try (ReadOptions read = new ReadOptions();
                 Stream<Map.Entry<byte[], byte[]>> entries = db.stream(read)) {   // it holds an iterator
                long count = entries.count();                                     // 2
                // --- javadoc:KeyValueReads end
                assertEquals(2, count);
                // --- javadoc:KeyValueReads begin
            }
            // --- javadoc:KeyValueReads end
            assertEquals("1", new String(values.get(0), UTF_8));
            assertNull(values.get(1));
            // --- javadoc:DatabaseAdmin begin
            String stats = db.getProperty("rocksdb.stats");                       // text; null if unknown
            OptionalLong keys = db.getLongProperty("rocksdb.estimate-num-keys");  // empty if unknown
            db.setOptions(Map.of("write_buffer_size", "8388608"));               // mutable options, by name
            db.flush(true);                                                        // memtables to table files
            // --- javadoc:DatabaseAdmin end
            assertTrue(stats.contains("Compaction Stats"), stats);
            assertEquals(2, keys.getAsLong());
            assertEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"));
            // --- javadoc:Engine begin
            Engine engine = RocksDB.engine();                // the library the bindings run on
            String version = engine.version();               // e.g. "11.8.1"; null when it does not tell
            boolean managers = engine.hasFunction("rocksdb_write_buffer_manager_create"); // not on 7.8.3
            // --- javadoc:Engine end
            assertNotNull(version);
            assertEquals(!version.startsWith("7."), managers, version);   // 7.8.3 lacks it, 10.x and 11.x have it
        }
    }

    @Test
    void latestOptionsAndUpdates() {
        Path path = dir.resolve("latest");
        try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            db.put("k2".getBytes(UTF_8), "v2".getBytes(UTF_8));
            List<String> seen = new ArrayList<>();
            List<String> gaps = new ArrayList<>();
            for (int poll = 0; poll < 3; poll++) {
                if (poll == 2) {
                    db.put("k3".getBytes(UTF_8), "v3".getBytes(UTF_8));
                    db.flush(true);   // the log file holding 3 is deleted: the reader at 4 is fine
                    db.put("k4".getBytes(UTF_8), "v4".getBytes(UTF_8));
                    db.flush(true);   // a reader at 4 finds a gap now
                }
                // --- javadoc:WalUpdate begin
                long from = 1;   // the sequence number to follow the writes from (kept by the reader)
                // --- javadoc:WalUpdate end
                from = poll == 0 ? 1 : poll == 1 ? 3 : 4;
                // --- javadoc:WalUpdate begin
                try {
                    for (WalUpdate update : db.getUpdatesSince(from, 100)) {   // empty: nothing new yet
                        try (WriteBatch batch = update.batch()) {   // the caller closes each batch
                            from = update.sequence() + batch.count();
                            // ... replicate batch.data(), or write it to another database
                            // --- javadoc:WalUpdate end
                            seen.add(update.sequence() + ":" + batch.count());
                            // --- javadoc:WalUpdate begin
                        }
                    }
                } catch (RocksDBException gap) {   // NOT_FOUND: the log no longer holds `from`
                    // the writes from `from` on are lost to this reader: copy the database anew
                    // (a checkpoint, a backup) and follow from the copy's latestSequenceNumber() + 1
                    // --- javadoc:WalUpdate end
                    gaps.add(from + " " + gap.code());
                    // --- javadoc:WalUpdate begin
                }
                // --- javadoc:WalUpdate end
                if (poll < 2) {
                    assertEquals(db.latestSequenceNumber() + 1, from);
                }
            }
            assertEquals(List.of("1:1", "2:1"), seen);   // then nothing new at 3
            assertEquals(List.of("4 NOT_FOUND"), gaps);
        }
        // --- javadoc:LatestOptions begin
        try (LatestOptions latest = LatestOptions.load(path);
             RocksDB db = RocksDB.open(path, latest.dbOptions(), latest.columnFamilies())) {
            byte[] v = db.get("k".getBytes(UTF_8));   // opened with the options it was last opened with
            // --- javadoc:LatestOptions end
            assertEquals("v", new String(v, UTF_8));
            // --- javadoc:LatestOptions begin
        }
        // --- javadoc:LatestOptions end
    }
}
