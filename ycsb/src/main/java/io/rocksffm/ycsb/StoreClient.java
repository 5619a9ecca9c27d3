package io.rocksffm.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.function.Function;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB binding logic, shared by both libraries: one table (YCSB's {@code usertable}, the
 * table name is ignored), a record is one key whose value holds all its fields ({@link
 * ValueCodec}); update reads the record, replaces the given fields and writes it back. YCSB
 * creates one DB object per client thread: they share one store per database directory
 * (property {@code rocksffm.ycsb.dir}), opened by the first and closed by the last.
 */
abstract class StoreClient extends DB {
    static final String DIR_PROPERTY = "rocksffm.ycsb.dir";

    private static final Object LOCK = new Object();
    private static KeyValueStore shared;
    private static int users;

    private final Function<Path, KeyValueStore> opener;
    private KeyValueStore store;

    StoreClient(Function<Path, KeyValueStore> opener) {
        this.opener = opener;
    }

    @Override
    public void init() throws DBException {
        String dir = getProperties().getProperty(DIR_PROPERTY);
        if (dir == null) throw new DBException("set -p " + DIR_PROPERTY + "=DIR");
        synchronized (LOCK) {
            if (shared == null) {
                try {
                    Path path = Path.of(dir).toAbsolutePath();
                    Files.createDirectories(path.getParent());
                    shared = opener.apply(path);
                } catch (RuntimeException | IOException e) {
                    throw new DBException(e);
                }
                System.err.println("[ycsb binding] " + getClass().getSimpleName() + ": " + shared.describe());
            }
            users++;
            store = shared;
        }
    }

    @Override
    public void cleanup() {
        synchronized (LOCK) {
            if (--users == 0) {
                shared.close();
                shared = null;
            }
        }
    }

    private static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] value = store.get(key(key));
            if (value == null) return Status.NOT_FOUND;
            ValueCodec.decode(value, fields, result);
            return Status.OK;
        } catch (RuntimeException e) {
            return error("read", e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        try {
            store.scan(key(startkey), (k, v) -> {
                HashMap<String, ByteIterator> record = new HashMap<>();
                ValueCodec.decode(v, fields, record);
                result.add(record);
                return result.size() < recordcount;
            });
            return Status.OK;
        } catch (RuntimeException e) {
            return error("scan", e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        try {
            byte[] k = key(key);
            byte[] old = store.get(k);
            if (old == null) return Status.NOT_FOUND;
            Map<String, byte[]> record = ValueCodec.decodeRaw(old);
            for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
                record.put(e.getKey(), e.getValue().toArray());
            }
            store.put(k, ValueCodec.encodeRaw(record));
            return Status.OK;
        } catch (RuntimeException e) {
            return error("update", e);
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        try {
            store.put(key(key), ValueCodec.encode(values));
            return Status.OK;
        } catch (RuntimeException e) {
            return error("insert", e);
        }
    }

    @Override
    public Status delete(String table, String key) {
        try {
            store.delete(key(key));
            return Status.OK;
        } catch (RuntimeException e) {
            return error("delete", e);
        }
    }

    private static Status error(String op, RuntimeException e) {
        System.err.println("[ycsb binding] " + op + " failed: " + e);
        return Status.ERROR;
    }
}
