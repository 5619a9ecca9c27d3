package io.rocksffm.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Transactions: many small calls per operation. One thread, fresh databases (default options,
 * default write options: WAL on, no sync), keys round-robin over {@code keyCount}, each side
 * reusing one transaction object (the C API's {@code old_txn}; rocksdbjni's
 * {@code beginTransaction(..., oldTransaction)}).
 *
 * <table>
 * <tr><th>variant</th><th>one op, both sides</th></tr>
 * <tr><td>tenPuts</td><td>pessimistic: begin, 10 {@code put(byte[], byte[])}, commit</td></tr>
 * <tr><td>lockedUpdate</td><td>pessimistic: begin, {@code getForUpdate} (exclusive), put, commit</td></tr>
 * <tr><td>optimisticCommit</td><td>optimistic: begin, {@code getForUpdate}, put, commit</td></tr>
 * <tr><td>wbwiPutGet</td><td>{@code WriteBatchWithIndex}: put, get from batch (default family,
 *     the database options given); the batch cleared every 1000 ops</td></tr>
 * </table>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TransactionBenchmarks {

    @State(Scope.Thread)
    public abstract static class Params extends WriteInputs {
        @Param({"100000"})
        public long keyCount;

        @Param({"16"})
        public int keySize;

        @Param({"64"})
        public int valueSize;

        int inBatch;

        void init() {
            initInputs(keySize, keyCount, valueSize, "txn");
        }
    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.TransactionDB db;
        io.rocksffm.OptimisticTransactionDB odb;
        io.rocksffm.WriteOptions write;
        io.rocksffm.TransactionOptions txOptions;
        io.rocksffm.OptimisticTransactionOptions optOptions;
        io.rocksffm.Options options;
        io.rocksffm.Transaction tx;
        io.rocksffm.Transaction otx;
        io.rocksffm.WriteBatchWithIndex wbwi;

        @Setup(Level.Trial)
        public void open() {
            init();
            options = new io.rocksffm.Options().setCreateIfMissing(true);
            try (io.rocksffm.TransactionDBOptions t = new io.rocksffm.TransactionDBOptions()) {
                db = io.rocksffm.TransactionDB.open(dir.resolve("p"), options, t);
            }
            odb = io.rocksffm.OptimisticTransactionDB.open(dir.resolve("o"), options);
            write = new io.rocksffm.WriteOptions();
            txOptions = new io.rocksffm.TransactionOptions();
            optOptions = new io.rocksffm.OptimisticTransactionOptions();
            tx = db.beginTransaction(write, txOptions);
            tx.rollback();
            otx = odb.beginTransaction(write, optOptions);
            otx.rollback();
            wbwi = new io.rocksffm.WriteBatchWithIndex();
        }

        @TearDown(Level.Trial)
        public void close() {
            wbwi.close();
            tx.close();
            otx.close();
            db.close();
            odb.close();
            write.close();
            txOptions.close();
            optOptions.close();
            options.close();
            cleanup();
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.TransactionDB db;
        org.rocksdb.OptimisticTransactionDB odb;
        org.rocksdb.WriteOptions write;
        org.rocksdb.ReadOptions read;
        org.rocksdb.TransactionOptions txOptions;
        org.rocksdb.OptimisticTransactionOptions optOptions;
        org.rocksdb.Options options;
        org.rocksdb.DBOptions dbOptions;
        org.rocksdb.Transaction tx;
        org.rocksdb.Transaction otx;
        org.rocksdb.WriteBatchWithIndex wbwi;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            options = new org.rocksdb.Options().setCreateIfMissing(true);
            dbOptions = new org.rocksdb.DBOptions();
            try (org.rocksdb.TransactionDBOptions t = new org.rocksdb.TransactionDBOptions()) {
                db = org.rocksdb.TransactionDB.open(options, t, dir.resolve("p").toString());
            }
            odb = org.rocksdb.OptimisticTransactionDB.open(options, dir.resolve("o").toString());
            write = new org.rocksdb.WriteOptions();
            read = new org.rocksdb.ReadOptions();
            txOptions = new org.rocksdb.TransactionOptions();
            optOptions = new org.rocksdb.OptimisticTransactionOptions();
            tx = db.beginTransaction(write, txOptions);
            tx.rollback();
            otx = odb.beginTransaction(write, optOptions);
            otx.rollback();
            wbwi = new org.rocksdb.WriteBatchWithIndex(true);
        }

        @TearDown(Level.Trial)
        public void close() {
            wbwi.close();
            tx.close();
            otx.close();
            db.close();
            odb.close();
            write.close();
            read.close();
            txOptions.close();
            optOptions.close();
            dbOptions.close();
            options.close();
            cleanup();
        }
    }

    // ---- tenPuts --------------------------------------------------------------------------------

    @Benchmark
    public void ffm_tenPuts(Ffm s) {
        io.rocksffm.Transaction tx = s.db.beginTransaction(s.write, s.txOptions, s.tx);
        for (int i = 0; i < 10; i++) {
            s.keys.write(s.keyArray, s.chooser.next());
            tx.put(s.keyArray, s.valueArray);
        }
        tx.commit();
    }

    @Benchmark
    public void jni_tenPuts(Jni s) throws org.rocksdb.RocksDBException {
        org.rocksdb.Transaction tx = s.db.beginTransaction(s.write, s.txOptions, s.tx);
        for (int i = 0; i < 10; i++) {
            s.keys.write(s.keyArray, s.chooser.next());
            tx.put(s.keyArray, s.valueArray);
        }
        tx.commit();
    }

    // ---- lockedUpdate ---------------------------------------------------------------------------

    @Benchmark
    public byte[] ffm_lockedUpdate(Ffm s) {
        io.rocksffm.Transaction tx = s.db.beginTransaction(s.write, s.txOptions, s.tx);
        s.keys.write(s.keyArray, s.chooser.next());
        byte[] old = tx.getForUpdate(s.keyArray);
        tx.put(s.keyArray, s.valueArray);
        tx.commit();
        return old;
    }

    @Benchmark
    public byte[] jni_lockedUpdate(Jni s) throws org.rocksdb.RocksDBException {
        org.rocksdb.Transaction tx = s.db.beginTransaction(s.write, s.txOptions, s.tx);
        s.keys.write(s.keyArray, s.chooser.next());
        byte[] old = tx.getForUpdate(s.read, s.keyArray, true);
        tx.put(s.keyArray, s.valueArray);
        tx.commit();
        return old;
    }

    // ---- optimisticCommit -----------------------------------------------------------------------

    @Benchmark
    public byte[] ffm_optimisticCommit(Ffm s) {
        io.rocksffm.Transaction tx = s.odb.beginTransaction(s.write, s.optOptions, s.otx);
        s.keys.write(s.keyArray, s.chooser.next());
        byte[] old = tx.getForUpdate(s.keyArray);
        tx.put(s.keyArray, s.valueArray);
        tx.commit();
        return old;
    }

    @Benchmark
    public byte[] jni_optimisticCommit(Jni s) throws org.rocksdb.RocksDBException {
        org.rocksdb.Transaction tx = s.odb.beginTransaction(s.write, s.optOptions, s.otx);
        s.keys.write(s.keyArray, s.chooser.next());
        byte[] old = tx.getForUpdate(s.read, s.keyArray, true);
        tx.put(s.keyArray, s.valueArray);
        tx.commit();
        return old;
    }

    // ---- wbwiPutGet -----------------------------------------------------------------------------

    @Benchmark
    public byte[] ffm_wbwiPutGet(Ffm s) {
        if (++s.inBatch == 1000) {
            s.wbwi.clear();
            s.inBatch = 0;
        }
        s.keys.write(s.keyArray, s.chooser.next());
        s.wbwi.put(s.keyArray, s.valueArray);
        return s.wbwi.getFromBatch(s.options, s.keyArray);
    }

    @Benchmark
    public byte[] jni_wbwiPutGet(Jni s) throws org.rocksdb.RocksDBException {
        if (++s.inBatch == 1000) {
            s.wbwi.clear();
            s.inBatch = 0;
        }
        s.keys.write(s.keyArray, s.chooser.next());
        s.wbwi.put(s.keyArray, s.valueArray);
        return s.wbwi.getFromBatch(s.dbOptions, s.keyArray);
    }
}
