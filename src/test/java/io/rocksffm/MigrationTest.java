package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rocksffm side of docs/migrating-from-rocksdbjni.md, compiled and run: each block between
 * "readme:NAME begin/end" markers is quoted by that page ({@link TutorialTest#readmeQuotesThisTest}
 * checks both files).
 */
class MigrationTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void openReadWriteBatchIterate() {
        Path path = dir.resolve("app");
        try (Options bootstrap = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(path, bootstrap)) {
            db.createColumnFamily("users", bootstrap);
        }
        // --- readme:migrateOpen begin
        List<String> names = RocksDB.listColumnFamilies(path, new Options());   // ["default", "users"]
        try (Options options = new Options().setCreateIfMissing(true)
                     .setMergeOperator(new StringAppendOperator(","));
             RocksDB db = RocksDB.open(path, options, List.of(
                     new ColumnFamilyDescriptor("default", options),
                     new ColumnFamilyDescriptor("users", options)))) {
            ColumnFamilyHandle users = db.columnFamily("users");   // handles belong to the database
            // --- readme:migrateOpen end
            assertEquals(List.of("default", "users"), names);
            // --- readme:migrateRw begin
            try (WriteOptions sync = new WriteOptions().setSync(true); ReadOptions read = new ReadOptions()) {
                db.put(b("k"), b("v"));                        // db.put(key, value)
                db.put(users, b("alice"), b("1"));             // db.put(cfHandle, key, value)
                db.put(sync, b("k2"), b("v2"));                // db.put(writeOptions, key, value)
                db.merge(users, b("alice"), b("2"));           // db.merge(cfHandle, key, value)
                byte[] v = db.get(b("k"));                     // db.get(key): null when absent
                byte[] alice = db.get(users, read, b("alice")); // db.get(cfHandle, readOptions, key): "1,2"
                db.delete(b("k2"));                            // db.delete(key)
                db.singleDelete(users, b("bob"));              // db.singleDelete(cfHandle, key)
                db.deleteRange(b("a"), b("b"));                // db.deleteRange(begin, end)
                // --- readme:migrateRw end
                assertEquals("v", new String(v, StandardCharsets.UTF_8));
                assertEquals("1,2", new String(alice, StandardCharsets.UTF_8));
                assertNull(db.get(b("k2")));
                // --- readme:migrateBatch begin
                try (WriteBatch batch = new WriteBatch()) {    // Java memory: built without native calls
                    batch.put(b("a1"), b("1")).put(users, b("carol"), b("3")).delete(b("k"));
                    db.write(sync, batch);                     // db.write(writeOptions, batch)
                }
                // --- readme:migrateBatch end
                assertEquals("3", new String(db.get(users, b("carol")), StandardCharsets.UTF_8));
                List<String> keys = new ArrayList<>();
                // --- readme:migrateIterate begin
                try (RocksIterator it = db.newIterator(users, read)) {   // db.newIterator(cfHandle, readOptions)
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        keys.add(new String(it.keyBytes(), StandardCharsets.UTF_8));   // it.key() in rocksdbjni
                    }
                }
                // --- readme:migrateIterate end
                assertEquals(List.of("alice", "carol"), keys);
            }
        }
    }

    @Test
    void snapshotsCheckpointsAdministration() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
            db.put(b("k"), b("old"));
            // --- readme:migrateSnapshot begin
            try (Snapshot snapshot = db.getSnapshot();
                 ReadOptions atSnapshot = new ReadOptions().setSnapshot(snapshot)) {
                db.put(b("k"), b("new"));
                byte[] old = db.get(atSnapshot, b("k"));       // "old"
                // --- readme:migrateSnapshot end
                assertEquals("old", new String(old, StandardCharsets.UTF_8));
                // --- readme:migrateSnapshot begin
            }   // close read options before the snapshot (try closes in reverse order)
            // --- readme:migrateSnapshot end
            // --- readme:migrateAdmin begin
            try (Checkpoint checkpoint = Checkpoint.create(db)) {           // any Database kind
                checkpoint.createCheckpoint(dir.resolve("backup-1"));       // a new directory
            }
            db.flush(true);                                                  // db.flush(new FlushOptions().setWaitForFlush(true))
            db.compactRange();                                               // db.compactRange()
            String stats = db.getProperty("rocksdb.stats");                  // db.getProperty(name)
            OptionalLong keys = db.getLongProperty("rocksdb.estimate-num-keys");   // db.getLongProperty(name)
            // --- readme:migrateAdmin end
            assertNotNull(stats);
            assertTrue(keys.isPresent());
            assertTrue(Files.isDirectory(dir.resolve("backup-1")));
        }
        // --- readme:migrateStatistics begin
        try (Options options = new Options().setCreateIfMissing(true)) {
            Statistics statistics = options.enableStatistics();   // options.setStatistics(new Statistics())
            try (RocksDB db = RocksDB.open(dir.resolve("measured"), options)) {
                db.put(b("k"), b("v"));
                long written = statistics.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName()); // getTickerCount
                // --- readme:migrateStatistics end
                assertEquals(1, written);
                // --- readme:migrateStatistics begin
            }
        }
        // --- readme:migrateStatistics end
    }

    @Test
    void transactionsWithFamiliesAndMergeByName() {
        Path path = dir.resolve("tx");
        // --- readme:migrateTransactions begin
        try (Options options = new Options().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                     .setMergeOperatorName("uint64add");          // options.setMergeOperatorName("uint64add")
             TransactionDBOptions txOptions = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(path, options, txOptions, List.of(   // (options, txOptions, path, descriptors, handles)
                     new ColumnFamilyDescriptor("default", options),
                     new ColumnFamilyDescriptor("counters", options)));
             WriteOptions write = new WriteOptions();
             ReadOptions read = new ReadOptions()) {
            ColumnFamilyHandle counters = db.columnFamily("counters");
            try (Transaction tx = db.beginTransaction(write)) {
                tx.getForUpdate(counters, read, b("hits"), true);   // locks the key; rocksdbjni: (read, cf, key, exclusive)
                tx.merge(counters, b("hits"), java.nio.ByteBuffer.allocate(8) // fully qualified: one use in the example
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(1).array()); // fully qualified: as above
                tx.commit();
            }
            // --- readme:migrateTransactions end
            assertEquals(1L, java.nio.ByteBuffer.wrap(db.get(counters, b("hits"))) // fully qualified: as above
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong()); // fully qualified: as above
            // --- readme:migrateTransactions begin
        }
        // --- readme:migrateTransactions end
    }
}
