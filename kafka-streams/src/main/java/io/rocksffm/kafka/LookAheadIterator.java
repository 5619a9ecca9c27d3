package io.rocksffm.kafka;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

import java.util.NoSuchElementException;

/**
 * What the stores' iterators share: the one-entry look-ahead behind {@code hasNext},
 * {@code next} and {@code peekNextKey}, and closing, by its user or by its store (an iterator
 * confined to another thread than the store's is only marked, and closes itself at its next use
 * on its own thread). Not thread-safe, as Kafka's store iterators are not.
 *
 * @param <K> the key type it returns
 */
abstract class LookAheadIterator<K> implements KeyValueIterator<K, byte[]> {
    private KeyValue<K, byte[]> next;
    private boolean open = true;
    /** Set by the store's close when this iterator belongs to another thread. */
    private volatile boolean storeClosed;

    /** {@return the next entry, or null at the end} */
    abstract KeyValue<K, byte[]> advance();

    /**
     * Closes the database iterators this one holds; throws {@link WrongThreadException} on another
     * thread than theirs, and this iterator then stays open.
     */
    abstract void release();

    /** Tells the store this iterator closed. */
    abstract void closed();

    /** {@return what {@code hasNext} answers once closed} (or throws: the subclass chooses) */
    boolean hasNextAfterClose() {
        return false;
    }

    /** The store closed while this iterator was open on another thread: it closes at its next use. */
    final void storeClosed() {
        storeClosed = true;
    }

    @Override
    public final boolean hasNext() {
        if (open && storeClosed) {
            close();
        }
        if (!open) {
            return hasNextAfterClose();
        }
        if (next == null) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public final KeyValue<K, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<K, byte[]> entry = next;
        next = null;
        return entry;
    }

    @Override
    public final K peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return next.key;
    }

    @Override
    public final void close() {
        if (open) {
            release();
            open = false;
            next = null;
            closed();
        }
    }
}
