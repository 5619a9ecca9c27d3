package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * What a trace of a database's operations records ({@link DatabaseAdmin#startTrace(TraceOptions, Path)};
 * RocksDB's {@code TraceOptions}): the largest trace file, one operation in how many, which kinds of
 * operation are left out, and whether write records keep the log's order.
 *
 * {@snippet id="TraceOptions" :
 * TraceOptions options = new TraceOptions()
 *         .withExcluded(Set.of(TraceOptions.Operation.GET))   // writes, seeks and multi-gets only
 *         .withSamplingFrequency(1);                          // every one of them
 * db.startTrace(options, dir.resolve("trace"));   // RocksDB writes the file from now on
 * db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 * db.endTrace();                                   // closes the file
 * }
 *
 * <p>A value: immutable, nothing to close, safe to share across threads; the {@code with...}
 * methods return a copy with one setting changed. Tracing needs RocksDB 11.8 or later (the C API's
 * {@code rocksdb_start_trace}); making these options works on every engine.
 *
 * @param maxTraceFileSize   the trace file's size limit in bytes, past which RocksDB stops recording
 *                           (RocksDB's default: 64 GiB)
 * @param samplingFrequency  record one operation in this many (1, the default: every one)
 * @param excluded           the kinds of operation left out of the trace (none by default)
 * @param preserveWriteOrder whether write records are in the order the log has them (false by
 *                           default: RocksDB may record concurrent writes in another order, which
 *                           costs less)
 */
public record TraceOptions(long maxTraceFileSize, long samplingFrequency, Set<Operation> excluded,
                           boolean preserveWriteOrder) {
    /** RocksDB's default {@link #maxTraceFileSize()}: 64 GiB. */
    public static final long DEFAULT_MAX_TRACE_FILE_SIZE = 64L << 30;

    /**
     * The kinds of operation a trace can leave out (RocksDB's {@code TraceFilterType}; each
     * constant's bit is the C API's {@code rocksdb_trace_filter_*}, checked by the tests).
     */
    public enum Operation {
        /** Point reads ({@code get}, {@code getPinned}). */
        GET(1),
        /** Writes: puts, deletes, merges, batches. */
        WRITE(1 << 1),
        /** An iterator's {@code seek}. */
        ITERATOR_SEEK(1 << 2),
        /** An iterator's {@code seekForPrev}. */
        ITERATOR_SEEK_FOR_PREV(1 << 3),
        /** Batched reads ({@code multiGet}). */
        MULTI_GET(1 << 4);

        /** The bit of {@code TraceOptions::filter} that leaves this kind out. */
        final long bit;

        Operation(long bit) {
            this.bit = bit;
        }
    }

    /**
     * Options with these settings.
     *
     * @param maxTraceFileSize   the trace file's size limit in bytes
     * @param samplingFrequency  record one operation in this many
     * @param excluded           the kinds of operation left out (copied)
     * @param preserveWriteOrder whether write records are in the log's order
     * @throws NullPointerException if {@code excluded} is null or holds null
     * @throws IllegalArgumentException if {@code maxTraceFileSize} or {@code samplingFrequency} is
     *         not positive
     */
    public TraceOptions {
        if (maxTraceFileSize <= 0) {
            throw new IllegalArgumentException("maxTraceFileSize must be positive: " + maxTraceFileSize);
        }
        if (samplingFrequency <= 0) {
            throw new IllegalArgumentException("samplingFrequency must be positive: " + samplingFrequency);
        }
        excluded = Set.copyOf(Objects.requireNonNull(excluded, "excluded"));
    }

    /** RocksDB's defaults: a 64 GiB limit, every operation recorded, writes in any order. */
    public TraceOptions() {
        this(DEFAULT_MAX_TRACE_FILE_SIZE);
    }

    /**
     * RocksDB's defaults with another size limit (rocksdbjni's {@code new TraceOptions(long)}).
     *
     * @param maxTraceFileSize the trace file's size limit in bytes
     * @throws IllegalArgumentException if it is not positive
     */
    public TraceOptions(long maxTraceFileSize) {
        this(maxTraceFileSize, 1, Set.of(), false);
    }

    /**
     * These options with another size limit.
     *
     * @param bytes the trace file's size limit in bytes
     * @return a copy with the limit changed
     * @throws IllegalArgumentException if it is not positive
     */
    public TraceOptions withMaxTraceFileSize(long bytes) {
        return new TraceOptions(bytes, samplingFrequency, excluded, preserveWriteOrder);
    }

    /**
     * These options recording one operation in {@code frequency}.
     *
     * @param frequency 1 for every operation
     * @return a copy with the sampling changed
     * @throws IllegalArgumentException if it is not positive
     */
    public TraceOptions withSamplingFrequency(long frequency) {
        return new TraceOptions(maxTraceFileSize, frequency, excluded, preserveWriteOrder);
    }

    /**
     * These options leaving out {@code operations} (RocksDB filters before it samples).
     *
     * @param operations the kinds of operation not to record
     * @return a copy with the exclusions changed
     * @throws NullPointerException if {@code operations} is null or holds null
     */
    public TraceOptions withExcluded(Set<Operation> operations) {
        return new TraceOptions(maxTraceFileSize, samplingFrequency, operations, preserveWriteOrder);
    }

    /**
     * These options with write records in the log's order or not.
     *
     * @param preserve true for the log's order
     * @return a copy with the setting changed
     */
    public TraceOptions withPreserveWriteOrder(boolean preserve) {
        return new TraceOptions(maxTraceFileSize, samplingFrequency, excluded, preserve);
    }

    /**
     * A native {@code rocksdb_trace_options_t} with these settings, for one call; the caller frees it
     * with {@link #destroy} and has checked that the engine has tracing.
     */
    MemorySegment toNative() {
        long filter = 0;
        for (Operation o : excluded) {
            filter |= o.bit;
        }
        MemorySegment p = rocksdb_trace_options_create();
        rocksdb_trace_options_set_max_trace_file_size(p, maxTraceFileSize);
        rocksdb_trace_options_set_sampling_frequency(p, samplingFrequency);
        rocksdb_trace_options_set_filter(p, filter);
        rocksdb_trace_options_set_preserve_write_order(p, flag(preserveWriteOrder));
        return p;
    }

    /** Frees what {@link #toNative()} made. */
    static void destroy(MemorySegment p) {
        rocksdb_trace_options_destroy(p);
    }

    private static byte flag(boolean b) {
        return (byte) (b ? 1 : 0);
    }
}
