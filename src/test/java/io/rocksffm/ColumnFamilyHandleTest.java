package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.internal.capi.RocksDBC.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;

class ColumnFamilyHandleTest {
    @TempDir
    Path dir;

    private static MemorySegment seg(String s) {
        return MemorySegment.ofArray(bytes(s));
    }

    private static String read(RocksDB db, ColumnFamilyHandle cf, ReadOptions ro, String key) {
        byte[] out = new byte[64];
        long n = db.get(cf, ro, seg(key), MemorySegment.ofArray(out));
        return n < 0 ? null : new String(out, 0, (int) n, StandardCharsets.UTF_8);
    }

    @Test
    void familiesAreSeparateAndSurviveReopen() {
        try (Options o = new Options().setCreateIfMissing(true); ReadOptions ro = new ReadOptions();
             WriteOptions wo = new WriteOptions()) {
            try (RocksDB db = RocksDB.open(dir, o)) {
                ColumnFamilyHandle users = db.createColumnFamily("users", o);
                assertEquals("users", users.name());
                assertTrue(users.id() > 0);
                assertFalse(users.isDefault());
                assertSame(db, users.database());
                assertSame(users, db.columnFamily("users"));
                ColumnFamilyHandle def = db.defaultColumnFamily();
                assertTrue(def.isDefault());
                assertEquals(0, def.id());
                assertEquals(List.of(def, users), db.columnFamilies());

                db.put(users, wo, seg("k"), seg("in-users"));
                db.put(wo, seg("k"), seg("in-default"));
                assertEquals("in-users", read(db, users, ro, "k"));
                assertEquals("in-default", read(db, def, ro, "k"));
                db.put(users, wo, seg("only-users"), seg("x"));
                assertNull(db.get(bytes("only-users")), "invisible from the default family");
                try (PinnedValue pv = db.getPinned(users, ro, seg("only-users"))) {
                    assertEquals("x", string(pv.toByteArray()));
                }
                db.put(users, wo, seg("a"), seg("1"));
                db.put(users, wo, seg("b"), seg("2"));
                db.deleteRange(users, wo, seg("a"), seg("b"));
                assertNull(read(db, users, ro, "a"));
                db.delete(users, wo, seg("b"));
                assertNull(read(db, users, ro, "b"));
                try (RocksIterator it = db.newIterator(users, ro)) {
                    StringBuilder keys = new StringBuilder();
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        keys.append(string(it.keyBytes())).append(' ');
                    }
                    assertEquals("k only-users ", keys.toString());
                    assertThrows(IllegalStateException.class, users::close, "iterators keep the handle open");
                }
            }
            assertEquals(List.of("default", "users"), RocksDB.listColumnFamilies(dir, o));
            RocksDBException e = assertThrows(RocksDBException.class, () -> RocksDB.open(dir, o));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), "all families must be opened: " + e.getMessage());
            try (RocksDB db = RocksDB.open(dir, o, List.of(new ColumnFamilyDescriptor("users", o)))) {
                assertEquals("in-users", read(db, db.columnFamily("users"), ro, "k"));
                assertEquals("in-default", string(db.get(bytes("k"))));
            }
            try (RocksDB ro2 = RocksDB.openReadOnly(dir, o, List.of(new ColumnFamilyDescriptor("users", o)))) {
                assertEquals("in-users", read(ro2, ro2.columnFamily("users"), ro, "k"));
            }
        }
    }

    @Test
    void batchSpanningFamiliesIsAtomicAndEncodedAsTheCApiDoes() {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, o);
             WriteOptions wo = new WriteOptions(); ReadOptions ro = new ReadOptions(); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle a = db.createColumnFamily("a", o);
            ColumnFamilyHandle b = db.createColumnFamily("b", o);
            batch.put(a, seg("k"), seg("va")).put(b, seg("k"), seg("vb")).put(seg("k"), seg("vd"))
                    .merge(a, seg("m"), seg("1")).singleDelete(b, seg("s"))
                    .deleteRange(a, seg("x"), seg("y")).delete(b, seg("gone"))
                    .put(db.defaultColumnFamily(), seg("d"), seg("default via handle"));
            // the C API's per-operation calls build the same bytes
            MemorySegment nb = rocksdb_writebatch_create();
            try (Arena arena = Arena.ofConfined()) {
                rocksdb_writebatch_put_cf(nb, a.ptr, arena.allocateFrom("k"), 1, arena.allocateFrom("va"), 2);
                rocksdb_writebatch_put_cf(nb, b.ptr, arena.allocateFrom("k"), 1, arena.allocateFrom("vb"), 2);
                rocksdb_writebatch_put(nb, arena.allocateFrom("k"), 1, arena.allocateFrom("vd"), 2);
                rocksdb_writebatch_merge_cf(nb, a.ptr, arena.allocateFrom("m"), 1, arena.allocateFrom("1"), 1);
                rocksdb_writebatch_singledelete_cf(nb, b.ptr, arena.allocateFrom("s"), 1);
                rocksdb_writebatch_delete_range_cf(nb, a.ptr, arena.allocateFrom("x"), 1, arena.allocateFrom("y"), 1);
                rocksdb_writebatch_delete_cf(nb, b.ptr, arena.allocateFrom("gone"), 4);
                rocksdb_writebatch_put_cf(nb, db.defaultColumnFamily().ptr, arena.allocateFrom("d"), 1,
                        arena.allocateFrom("default via handle"), 18);
                MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
                MemorySegment rep = rocksdb_writebatch_data(nb, size);
                assertArrayEquals(rep.reinterpret(size.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE),
                        batch.data().toArray(ValueLayout.JAVA_BYTE));
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
            // without a merge operator the merge record makes the read fail, so leave it out
            batch.clear().put(a, seg("k"), seg("va")).put(b, seg("k"), seg("vb")).put(seg("k"), seg("vd"));
            db.write(wo, batch);
            assertEquals("va", read(db, a, ro, "k"));
            assertEquals("vb", read(db, b, ro, "k"));
            assertEquals("vd", read(db, db.defaultColumnFamily(), ro, "k"));
            // a batch naming a dropped family fails as a whole
            db.dropColumnFamily(b);
            batch.clear().put(a, seg("k"), seg("new"));
            assertThrows(IllegalStateException.class, () -> batch.put(b, seg("k"), seg("x")), "closed handle");
            assertEquals("va", read(db, a, ro, "k"));
        }
    }

    @Test
    void createDropAndHandleRules() {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, o);
             RocksDB other = RocksDB.open(dir.resolve("other"), o); WriteOptions wo = new WriteOptions();
             ReadOptions ro = new ReadOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("temp", o);
            RocksDBException exists = assertThrows(RocksDBException.class, () -> db.createColumnFamily("temp", o));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, exists.code(), exists.getMessage());
            assertThrows(IllegalArgumentException.class, () -> other.put(cf, wo, seg("k"), seg("v")), "handle of another database");
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamily(db.defaultColumnFamily()));
            assertThrows(NullPointerException.class, () -> db.put(null, wo, seg("k"), seg("v")));
            db.put(cf, wo, seg("k"), seg("v"));
            db.dropColumnFamily(cf);
            assertTrue(cf.isClosed());
            assertNull(db.columnFamily("temp"));
            assertThrows(IllegalStateException.class, () -> db.put(cf, wo, seg("k"), seg("v")));
            assertThrows(IllegalStateException.class, () -> db.get(cf, ro, seg("k"), MemorySegment.ofArray(new byte[1])));
            assertThrows(IllegalStateException.class, () -> db.newIterator(cf, ro));
            assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(cf));
            assertEquals(List.of("default"), RocksDB.listColumnFamilies(dir, o));

            ColumnFamilyHandle kept = db.createColumnFamily("kept", o);
            kept.close();
            kept.close();
            assertThrows(IllegalStateException.class, () -> db.put(kept, wo, seg("k"), seg("v")));
            db.defaultColumnFamily().close(); // a no-op: the default family lives with the database
            db.put(bytes("still"), bytes("works"));
        }
    }
}
