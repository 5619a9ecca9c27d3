package io.rocksffm.kafka;

import org.apache.kafka.streams.KeyValue;

import java.util.Iterator;
import java.util.List;

/** An iterator over entries already read into memory (a store's sorted answer); holds nothing native. */
final class InMemoryIterator<K> extends LookAheadIterator<K> {
    private final Iterator<KeyValue<K, byte[]>> entries;

    InMemoryIterator(List<KeyValue<K, byte[]>> entries) {
        this.entries = entries.iterator();
    }

    @Override
    KeyValue<K, byte[]> advance() {
        return entries.hasNext() ? entries.next() : null;
    }

    @Override
    void release() {
    }

    @Override
    void closed() {
    }
}
