package io.rocksffm.ycsb;

/** YCSB binding for rocksdbjni (JNI): {@code -db io.rocksffm.ycsb.RocksJniClient}. */
public final class RocksJniClient extends StoreClient {
    public RocksJniClient() {
        super(JniStore::new);
    }
}
