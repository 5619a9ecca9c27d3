package io.rocksffm.ycsb;

import java.nio.file.Path;
import java.util.function.BiPredicate;

import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/** rocksdbjni through its byte[] methods, default options. */
final class JniStore implements KeyValueStore {
    private final Options options;
    private final ReadOptions readOptions;
    private final RocksDB db;

    JniStore(Path dir) {
        RocksDB.loadLibrary();
        options = new Options().setCreateIfMissing(true);
        readOptions = new ReadOptions();
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(key, value);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            db.delete(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void scan(byte[] start, BiPredicate<byte[], byte[]> visitor) {
        try (RocksIterator it = db.newIterator(readOptions)) {
            for (it.seek(start); it.isValid(); it.next()) {
                if (!visitor.test(it.key(), it.value())) break;
            }
            it.status();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String describe() {
        return "rocksdbjni " + RocksDB.rocksdbVersion();
    }

    @Override
    public void close() {
        db.close();
        readOptions.close();
        options.close();
    }
}
