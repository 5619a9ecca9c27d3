package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Database;
import io.rocksffm.FlushOptions;
import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.OptimisticTransactionOptions;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDBException;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.TransactionOptions;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteBatchWithIndex;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.CompactionOptions;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.ImportColumnFamilyOptions;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.WaitForCompactOptions;
import java.util.Arrays;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.TraceOptions;

/**
 * {@link BadInputTest}'s null probe for the transaction types: every public method and factory of
 * {@link TransactionDB}, {@link OptimisticTransactionDB}, {@link Transaction},
 * {@link WriteBatchWithIndex} and the transaction options, for every reference parameter not
 * documented as nullable, refuses null with {@link NullPointerException} (found by reflection),
 * and the objects stay usable.
 */
class TransactionBadInputTest {
    /** The compaction settings the null probes pass (never closed: the probed calls refuse before using them). */
    private static final CompactRangeOptions COMPACT_RANGE = new CompactRangeOptions();

    @TempDir
    Path dir;

    /** The indexed batch the null probes pass (empty: the probed calls refuse their null before writing it). */
    private final WriteBatchWithIndex indexed = new WriteBatchWithIndex();

    @AfterEach
    void closeIndexed() {
        indexed.close();
    }

    private IngestExternalFileOptions ingest;
    /** Null on engines before RocksDB 11. */
    private CompactionOptions compaction;

    /** Import options for the probes (null on engines without imports). */
    private static final ImportColumnFamilyOptions IMPORT = AdminTables.importOptionsIfSupported();

    private static final Set<String> NULLABLE = Set.of(
            "beginTransaction(WriteOptions,TransactionOptions,Transaction)#2",
            "beginTransaction(WriteOptions,OptimisticTransactionOptions,Transaction)#2",
            "compactRange(byte[],byte[])#0",
            "compactRange(byte[],byte[])#1",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "compactRange(ColumnFamilyHandle,CompactRangeOptions,MemorySegment,MemorySegment)#2",
            "compactRange(ColumnFamilyHandle,CompactRangeOptions,MemorySegment,MemorySegment)#3",
            "deleteFilesInRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "deleteFilesInRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "suggestCompactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "suggestCompactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "equals(Object)#0");

    @Test
    void nullArgumentsThrowNullPointerException() throws Exception {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions tdo = new TransactionDBOptions();
             TransactionOptions to = new TransactionOptions();
             OptimisticTransactionOptions oo = new OptimisticTransactionOptions();
             TransactionDB tdb = TransactionDB.open(dir.resolve("p"), options, tdo);
             OptimisticTransactionDB odb = OptimisticTransactionDB.open(dir.resolve("o"), options);
             WriteOptions wo = new WriteOptions();
             ReadOptions ro = new ReadOptions();
             FlushOptions flush = new FlushOptions();
             WriteBatch batch = new WriteBatch();
             WriteBatchWithIndex wbwi = new WriteBatchWithIndex();
             Transaction tx = tdb.beginTransaction(wo, to);
             Transaction otx = odb.beginTransaction(wo, oo);
             IngestExternalFileOptions ingestOptions = new IngestExternalFileOptions();
             CompactionOptions compactionOptions = AdminTables.compactionOptionsIfSupported()) {
            ingest = ingestOptions;
            compaction = compactionOptions;
            Map<Class<?>, Object> receivers = Map.of(TransactionDB.class, tdb, OptimisticTransactionDB.class, odb,
                    Transaction.class, tx, WriteBatchWithIndex.class, wbwi, TransactionDBOptions.class, tdo,
                    TransactionOptions.class, to, OptimisticTransactionOptions.class, oo);
            List<Object[]> targets = new ArrayList<>();
            for (Map.Entry<Class<?>, Object> e : receivers.entrySet()) {
                for (Method m : e.getKey().getMethods()) {
                    if (m.getDeclaringClass() == Object.class) {
                        continue;
                    }
                    targets.add(new Object[] {m, Modifier.isStatic(m.getModifiers()) ? null : e.getValue()});
                    if (e.getValue() == tx) {
                        targets.add(new Object[] {m, otx});
                    }
                }
            }
            int calls = 0;
            for (Object[] t : targets) {
                Method m = (Method) t[0];
                Class<?>[] types = m.getParameterTypes();
                for (int i = 0; i < types.length; i++) {
                    String where = ApiTableSupport.signature(m) + "#" + i;
                    if (types[i].isPrimitive() || NULLABLE.contains(where)) {
                        continue;
                    }
                    Object target = t[1];
                    ColumnFamilyHandle cf = target == odb || target == otx ? odb.defaultColumnFamily()
                            : tdb.defaultColumnFamily();
                    Database db = target == odb || target == otx ? odb : tdb;
                    Object[] args = new Object[types.length];
                    for (int j = 0; j < types.length; j++) {
                        args[j] = j == i ? null : dummy(m, j, types[j], options, tdo, to, oo, wo, ro, flush, batch, cf,
                                db);
                    }
                    try {
                        Object result = m.invoke(target, args);
                        fail(m.getDeclaringClass().getSimpleName() + "." + where + ": null accepted, returned " + result);
                    } catch (InvocationTargetException ex) {
                        assertInstanceOf(NullPointerException.class, ex.getCause(),
                                m.getDeclaringClass().getSimpleName() + "." + where);
                    }
                    calls++;
                }
            }
            assertThrows(NullPointerException.class, () -> tx.multiGetAsList(Arrays.asList(bytes("a"), null)));
            assertThrows(NullPointerException.class, () -> tx.multiGet(tx.defaultColumnFamily(), ro,
                    new MemorySegment[] {null}, new MemorySegment[1], new long[1], new RocksDBException[1], false));
            // everything still works
            tx.put(bytes("k"), bytes("v"));
            tx.commit();
            otx.put(bytes("k"), bytes("v"));
            otx.commit();
            assertEquals("v", string(tdb.get(bytes("k"))));
            assertEquals("v", string(odb.get(bytes("k"))));
            report("bad input: transactions: null: %d calls with one null argument threw NullPointerException", calls);
        }
    }

    private Object dummy(Method m, int i, Class<?> t, Options options, TransactionDBOptions tdo, TransactionOptions to,
                         OptimisticTransactionOptions oo, WriteOptions wo, ReadOptions ro, FlushOptions flush,
                         WriteBatch batch, ColumnFamilyHandle cf, Database db) {
        if (t == MemorySegment.class) {
            return MemorySegment.ofArray(bytes("k"));
        } else if (t == byte[].class) {
            return bytes("k");
        } else if (t == MemorySegment[].class) {
            return new MemorySegment[] {MemorySegment.ofArray(bytes("k"))};
        } else if (t == long[].class) {
            return new long[1];
        } else if (t == RocksDBException[].class) {
            return new RocksDBException[1];
        } else if (t == ReadOptions.class) {
            return ro;
        } else if (t == WriteOptions.class) {
            return wo;
        } else if (t == WriteBatch.class) {
            return batch;
        } else if (t == WriteBatchWithIndex.class) {
            return indexed;
        } else if (t == Options.class) {
            return options;
        } else if (t == TransactionDBOptions.class) {
            return tdo;
        } else if (t == TransactionOptions.class) {
            return to;
        } else if (t == OptimisticTransactionOptions.class) {
            return oo;
        } else if (t == FlushOptions.class) {
            return flush;
        } else if (t == ColumnFamilyHandle.class) {
            return cf;
        } else if (t == Database.class) {
            return db;
        } else if (t == Transaction.class) {
            return null;
        } else if (t == String.class) {
            return "rocksdb.stats";
        } else if (t == Path.class) {
            return dir.resolve("null-probe");
        } else if (t == IngestExternalFileOptions.class) {
            return ingest;
        } else if (t == CompactionOptions.class) {
            return compaction; // null before RocksDB 11: the call then refuses that null first, still an NPE
        } else if (t == Map.class) {
            return Map.of("write_buffer_size", "4194304");
        } else if (t == BiConsumer.class) {
            return (BiConsumer<Object, Object>) (a, b) -> {};
        } else if (t == List.class) {
            var g = m.getGenericParameterTypes()[i];
            if (g instanceof ParameterizedType p) {
                return p.getActualTypeArguments()[0] == byte[].class ? List.of(bytes("k")) : List.of();
            }
            return List.of(bytes("k"));
        } else if (t == boolean.class) {
            return false;
        } else if (t == int.class) {
            return 1;
        } else if (t == long.class) {
            return 1L;
        }
        if (t == CompactRangeOptions.class) {
            return COMPACT_RANGE;
        }
        if (t == ImportColumnFamilyOptions.class) {
            return IMPORT;
        }
        if (t == TraceOptions.class) {
            return new TraceOptions();
        }
        if (t == ExportImportFilesMetaData.class || t == WaitForCompactOptions.class) {
            // no export to import into a TransactionDB (it refuses imports), and no wait options on
            // 7.8.3: null, which the call refuses as it refuses the probed one
            return null;
        }
        throw new AssertionError("no dummy for " + t + " in " + m);
    }
}
