package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A filter policy for table files ({@code rocksdb_filterpolicy_t}): a bloom or ribbon filter that
 * lets point reads skip files that cannot hold a key.
 *
 * <p>A value, not a native object: RocksDB's C API takes ownership of a native policy when it is
 * set on table options, so one native policy can never serve two configurations. This class
 * describes the policy and {@link BlockBasedTableConfig#setFilterPolicy} makes a native one for
 * each configuration it is set on. Immutable and thread-safe; nothing to close.
 *
 * @param kind       bloom or ribbon
 * @param bitsPerKey bits per key (bloom), or the bloom-equivalent bits per key (ribbon)
 */
public record FilterPolicy(Kind kind, double bitsPerKey) {
    /** The filter's algorithm. */
    public enum Kind {
        /** RocksDB's full bloom filter ({@code rocksdb_filterpolicy_create_bloom_full}). */
        BLOOM,
        /** A ribbon filter: about 30% smaller than bloom for the same false-positive rate, more CPU to build. */
        RIBBON
    }

    /**
     * Checks the parameters.
     *
     * @param kind       bloom or ribbon
     * @param bitsPerKey bits per key, finite and {@code > 0}
     * @throws NullPointerException if {@code kind} is null
     * @throws IllegalArgumentException if {@code bitsPerKey} is not finite and positive
     */
    public FilterPolicy {
        Objects.requireNonNull(kind, "kind");
        if (!(bitsPerKey > 0) || Double.isInfinite(bitsPerKey)) {
            throw new IllegalArgumentException("bits per key must be finite and > 0: " + bitsPerKey);
        }
    }

    /**
     * A full bloom filter (about 1% false positives at 10 bits per key).
     *
     * @param bitsPerKey bits per key, finite and {@code > 0}
     * @return the policy
     * @throws IllegalArgumentException if {@code bitsPerKey} is not finite and positive
     */
    public static FilterPolicy bloom(double bitsPerKey) {
        return new FilterPolicy(Kind.BLOOM, bitsPerKey);
    }

    /**
     * A ribbon filter with the false-positive rate of a bloom filter of {@code bloomEquivalentBitsPerKey}.
     *
     * @param bloomEquivalentBitsPerKey the bloom filter whose accuracy to match, finite and {@code > 0}
     * @return the policy
     * @throws IllegalArgumentException if the argument is not finite and positive
     */
    public static FilterPolicy ribbon(double bloomEquivalentBitsPerKey) {
        return new FilterPolicy(Kind.RIBBON, bloomEquivalentBitsPerKey);
    }

    /** A new native policy; ownership passes to the caller (normally to table options at once). */
    MemorySegment newNative() {
        return switch (kind) {
            case BLOOM -> rocksdb_filterpolicy_create_bloom_full(bitsPerKey);
            case RIBBON -> rocksdb_filterpolicy_create_ribbon(bitsPerKey);
        };
    }
}
