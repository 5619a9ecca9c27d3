package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

import java.util.NoSuchElementException;

/** The iterator of an empty range (e.g. {@code range(from, to)} with {@code from > to}). */
final class EmptyIterator implements KeyValueIterator<Bytes, byte[]> {
    @Override
    public boolean hasNext() {
        return false;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        throw new NoSuchElementException();
    }

    @Override
    public Bytes peekNextKey() {
        throw new NoSuchElementException();
    }

    @Override
    public void close() {
    }
}
