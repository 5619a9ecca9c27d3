package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.FlushOptions;
import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.OptimisticTransactionOptions;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.TransactionOptions;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;
import io.rocksffm.reliability.ApiTableSupport.Ctx;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.WriteBatchWithIndex;

/**
 * {@link UseAfterCloseTest} for the transaction types: every public method of a closed
 * transaction database, transaction or transaction option object throws
 * {@link IllegalStateException}; closing twice is harmless; the tables cover the public API.
 */
class TransactionUseAfterCloseTest {
    @TempDir
    Path dir;

    private Ctx ctx;

    @BeforeEach
    void setUp() {
        ctx = new Ctx(dir);
        ctx.ro = new ReadOptions();
        ctx.wo = new WriteOptions();
        ctx.batch = new WriteBatch().put(bytes("b"), bytes("1"));
        ctx.options = new Options();
        ctx.flush = new FlushOptions();
        ctx.ingest = new IngestExternalFileOptions();
    }

    @AfterEach
    void tearDown() {
        ctx.ro.close();
        ctx.wo.close();
        ctx.batch.close();
        ctx.options.close();
        ctx.flush.close();
        ctx.ingest.close();
        ctx.arena.close();
    }

    /** A database at {@code path} with families "default" and "other", made with RocksDB. */
    private static List<ColumnFamilyDescriptor> withOther(Path path, Options o) {
        try (RocksDB db = RocksDB.open(path, o)) {
            db.createColumnFamily("other", o);
        }
        return List.of(new ColumnFamilyDescriptor("other", o));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TransactionDB", "OptimisticTransactionDB", "Transaction", "OptimisticTransaction",
            "TransactionDBOptions", "TransactionOptions", "OptimisticTransactionOptions", "WriteBatchWithIndex"})
    void everyPublicMethodOfAClosedObjectThrowsIllegalState(String type) {
        Path path = dir.resolve("closed");
        try (Options o = new Options().setCreateIfMissing(true); TransactionDBOptions t = new TransactionDBOptions()) {
            switch (type) {
                case "TransactionDB" -> {
                    TransactionDB db = TransactionDB.open(path, o, t, withOther(path, o));
                    Ctx c = ctx.copy();
                    c.cf = db.defaultColumnFamily();
                    c.otherCf = db.columnFamily("other");
                    db.close();
                    check(TransactionTables.transactionDB(), db, c);
                }
                case "OptimisticTransactionDB" -> {
                    OptimisticTransactionDB db = OptimisticTransactionDB.open(path, o, withOther(path, o));
                    Ctx c = ctx.copy();
                    c.cf = db.defaultColumnFamily();
                    c.otherCf = db.columnFamily("other");
                    db.close();
                    check(TransactionTables.optimisticTransactionDB(), db, c);
                }
                case "Transaction", "OptimisticTransaction" -> {
                    boolean optimistic = type.startsWith("Optimistic");
                    try (var db = optimistic ? OptimisticTransactionDB.open(path, o) : null;
                         var pdb = optimistic ? null : TransactionDB.open(path, o, t)) {
                        Transaction tx = optimistic ? db.beginTransaction(ctx.wo) : pdb.beginTransaction(ctx.wo);
                        tx.put(bytes("k"), bytes("v"));
                        Ctx c = ctx.copy();
                        c.cf = tx.defaultColumnFamily();
                        tx.close();
                        check(TransactionTables.transaction(), tx, c);
                    }
                }
                case "TransactionDBOptions" -> check(TransactionTables.transactionDBOptions(),
                        closed(new TransactionDBOptions()), ctx);
                case "TransactionOptions" -> check(TransactionTables.transactionOptions(), closed(new TransactionOptions()),
                        ctx);
                case "OptimisticTransactionOptions" -> check(TransactionTables.optimisticTransactionOptions(),
                        closed(new OptimisticTransactionOptions()), ctx);
                case "WriteBatchWithIndex" -> {
                    try (RocksDB db = RocksDB.open(path, o)) {
                        Ctx c = ctx.copy();
                        c.cf = db.defaultColumnFamily();
                        check(TransactionTables.writeBatchWithIndex(db), closed(new WriteBatchWithIndex()), c);
                    }
                }
                default -> fail(type);
            }
        }
    }

    private static <T extends AutoCloseable> T closed(T t) {
        try {
            t.close();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return t;
    }

    private static <T> void check(Table<T> table, T closed, Ctx c) {
        table.assertCoversPublicApi();
        for (int round = 0; round < 2; round++) {
            for (Map.Entry<String, BiConsumer<T, Ctx>> e : table.guarded.entrySet()) {
                IllegalStateException ise = assertThrows(IllegalStateException.class, () -> e.getValue().accept(closed, c),
                        table.type.getSimpleName() + "." + e.getKey() + " after close");
                assertNotNull(ise.getMessage());
            }
            for (Map.Entry<String, BiConsumer<T, Ctx>> e : table.plain.entrySet()) {
                e.getValue().accept(closed, c);
            }
        }
        report("use after close: %s: %d methods throw IllegalStateException, %d usable (%s), double close harmless",
                table.type.getSimpleName(), table.guarded.size(), table.plain.size(), table.plain.keySet());
    }
}
