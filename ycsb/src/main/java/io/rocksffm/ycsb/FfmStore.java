package io.rocksffm.ycsb;

import java.nio.file.Path;
import java.util.function.BiPredicate;

import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;

/** rocksffm through its byte[] conveniences, default options. */
final class FfmStore implements KeyValueStore {
    private final Options options;
    private final ReadOptions readOptions;
    private final RocksDB db;

    FfmStore(Path dir) {
        // Same engine as rocksdbjni, found as a user's program finds it: rocksffm asks rocksdbjni
        // (on the class path) to load its library (or finds it loaded already).
        String source = RocksDB.engine().source();
        if (!source.equals("preloaded") && !source.equals("rocksdbjni")) {
            throw new IllegalStateException("rocksffm runs on another engine than rocksdbjni's: " + RocksDB.engine());
        }
        options = new Options().setCreateIfMissing(true);
        readOptions = new ReadOptions();
        db = RocksDB.open(dir, options);
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value);
    }

    @Override
    public void delete(byte[] key) {
        db.delete(key);
    }

    @Override
    public void scan(byte[] start, BiPredicate<byte[], byte[]> visitor) {
        try (RocksIterator it = db.newIterator(readOptions)) {
            for (it.seek(start); it.isValid(); it.next()) {
                if (!visitor.test(it.keyBytes(), it.valueBytes())) break;
            }
            it.status();
        }
    }

    @Override
    public String describe() {
        return "rocksffm on " + RocksDB.engine();
    }

    @Override
    public void close() {
        db.close();
        readOptions.close();
        options.close();
    }
}
