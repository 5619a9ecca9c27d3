package io.rocksffm.ycsb;

/** YCSB binding for rocksffm (FFM): {@code -db io.rocksffm.ycsb.RocksFfmClient}. */
public final class RocksFfmClient extends StoreClient {
    public RocksFfmClient() {
        super(FfmStore::new);
    }
}
