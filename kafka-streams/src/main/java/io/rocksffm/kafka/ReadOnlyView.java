package io.rocksffm.kafka;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A read-only view of a {@link RocksffmKeyValueStore} at an isolation level: with
 * {@code READ_UNCOMMITTED} it reads the uncommitted writes over the database, with
 * {@code READ_COMMITTED} only what the last commit wrote.
 */
final class ReadOnlyView implements ReadOnlyKeyValueStore<Bytes, byte[]> {
    private final RocksffmKeyValueStore store;
    private final boolean uncommitted;

    ReadOnlyView(RocksffmKeyValueStore store, boolean uncommitted) {
        this.store = store;
        this.uncommitted = uncommitted;
    }

    @Override
    public byte[] get(Bytes key) {
        return store.get(key, uncommitted);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return store.range(from, to, false, uncommitted);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return store.range(from, to, true, uncommitted);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return store.range(null, null, false, uncommitted);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return store.range(null, null, true, uncommitted);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        return store.prefixScan(prefix, prefixKeySerializer, uncommitted);
    }

    @Override
    public long approximateNumEntries() {
        return store.approximateNumEntries();
    }
}
