package io.rocksffm;

import java.util.List;

/**
 * Java code RocksDB calls when background work happens: flushes, compactions, background errors,
 * write stalls, sealed memtables and ingested files ({@code rocksdb_eventlistener_t}). Add one to
 * a database's options with {@link Options#addEventListener}; every method has an empty default,
 * so implement only the events of interest.
 *
 * {@snippet id="EventListener" :
 * List<String> tableFiles = new CopyOnWriteArrayList<>();
 * EventListener listener = new EventListener() {
 *     public void onFlushCompleted(FlushJobInfo info) {   // on a RocksDB thread: be quick
 *         tableFiles.add(info.filePath());
 *     }
 * };
 * try (Options options = new Options().setCreateIfMissing(true).addEventListener(listener);
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     db.flush(true);                   // tableFiles soon names the new table file
 * }
 * }
 *
 * <p><b>Threads.</b> RocksDB calls the methods on its own background threads (flush and
 * compaction threads), possibly several at once: implementations must be thread-safe, should
 * return quickly (a slow listener holds up flushes and compactions). A listener may read and
 * write databases, but calls that wait for background work, which the listener may be part of,
 * throw {@link IllegalStateException} from inside it: {@code flush} and {@code compactRange} of
 * any database, and {@code close} of a database that runs Java code (before, a
 * {@code flush(true)} from a listener deadlocked).
 *
 * <p><b>Information.</b> Each event's information is copied into an immutable record before the
 * method is called (the engine's structures are valid only during the call), so a listener may
 * keep it.
 *
 * <p><b>Failures.</b> Anything a method throws, {@link Error}s included, is caught before it
 * reaches RocksDB (an exception must not unwind through native frames), logged through
 * {@link System.Logger} {@code io.rocksffm.EventListener} at {@code WARNING} and counted; RocksDB
 * goes on as if the method had returned.
 *
 * <p><b>Engines.</b> The C API's listeners ({@code rocksdb_eventlistener_create}) are in RocksDB
 * 10.x; on an engine without them (7.8.3), {@link Options#addEventListener} throws
 * {@link UnsupportedOperationException} naming the function.
 */
public interface EventListener {
    /**
     * A flush of a memtable to a table file is about to start.
     *
     * @param info what is flushed (its file path and sequence numbers are the planned ones)
     */
    default void onFlushBegin(FlushJobInfo info) {}

    /**
     * A memtable has been flushed to a table file.
     *
     * @param info what was flushed
     */
    default void onFlushCompleted(FlushJobInfo info) {}

    /**
     * A compaction is about to start.
     *
     * @param info what is compacted (outputs and output statistics are empty)
     */
    default void onCompactionBegin(CompactionJobInfo info) {}

    /**
     * A compaction has finished (successfully or not: see {@link CompactionJobInfo#status()}).
     *
     * @param info what was compacted
     */
    default void onCompactionCompleted(CompactionJobInfo info) {}

    /**
     * A background operation failed; RocksDB may stop taking writes (until
     * {@code Resume}/reopen), depending on the error's severity.
     *
     * @param error the failure
     */
    default void onBackgroundError(BackgroundError error) {}

    /**
     * A column family's write stall condition changed (writes slowed down, stopped, or back to
     * normal).
     *
     * @param info the family and its new and previous conditions
     */
    default void onStallConditionsChanged(WriteStallInfo info) {}

    /**
     * A memtable has been sealed (made immutable, to be flushed).
     *
     * @param info the memtable
     */
    default void onMemTableSealed(MemTableInfo info) {}

    /**
     * An external table file has been ingested.
     *
     * @param info the family and the file's path inside the database
     */
    default void onExternalFileIngested(ExternalFileIngestionInfo info) {}

    /**
     * A listener that records RocksDB's flushes and compactions as JDK Flight Recorder events
     * ({@code io.rocksffm.FlushCompleted}, {@code io.rocksffm.CompactionCompleted}, enabled by
     * default), so that {@code jfr print --events io.rocksffm.FlushCompleted recording.jfr} shows
     * a database's background work next to the JVM's. It costs nothing while no recording is on.
     *
     * @return a new listener
     */
    static EventListener flightRecorder() {
        return new FlightRecorderListener();
    }

    // ---- information ----------------------------------------------------------------------------

    /**
     * A flush ({@code FlushJobInfo}).
     *
     * @param columnFamily            the flushed family's name
     * @param filePath                the table file written
     * @param triggeredWritesSlowdown whether writes were slowed down when the flush started
     * @param triggeredWritesStop     whether writes were stopped when the flush started
     * @param smallestSeqno           the smallest sequence number in the file
     * @param largestSeqno            the largest sequence number in the file
     * @param reason                  RocksDB's {@code FlushReason} code (e.g. {@code 0x0a} a
     *                                manual flush, {@code 0x06} a full write buffer)
     */
    record FlushJobInfo(String columnFamily, String filePath, boolean triggeredWritesSlowdown,
                        boolean triggeredWritesStop, long smallestSeqno, long largestSeqno, int reason) {
        /** RocksDB's {@code FlushReason::kManualFlush}. */
        public static final int MANUAL_FLUSH = 0x0a;
    }

    /**
     * A compaction ({@code CompactionJobInfo}).
     *
     * @param columnFamily               the compacted family's name
     * @param status                     the compaction's failure, or null when it succeeded
     * @param inputFiles                 the paths of the input table files
     * @param outputFiles                the paths of the output table files
     * @param elapsedMicros              the compaction's duration in microseconds
     * @param numCorruptKeys             corrupt keys met
     * @param baseInputLevel             the lowest input level
     * @param outputLevel                the output level
     * @param inputRecords               entries read
     * @param outputRecords              entries written
     * @param totalInputBytes            bytes read
     * @param totalOutputBytes           bytes written
     * @param reason                     RocksDB's {@code CompactionReason} code (e.g. {@code 9}: manual)
     * @param numInputFiles              the number of input files
     * @param numInputFilesAtOutputLevel the number of input files at the output level
     */
    record CompactionJobInfo(String columnFamily, RocksDBException status, List<String> inputFiles,
                             List<String> outputFiles, long elapsedMicros, long numCorruptKeys, int baseInputLevel,
                             int outputLevel, long inputRecords, long outputRecords, long totalInputBytes,
                             long totalOutputBytes, int reason, long numInputFiles, long numInputFilesAtOutputLevel) {
        /** RocksDB's {@code CompactionReason::kManualCompaction}. */
        public static final int MANUAL_COMPACTION = 9;

        /**
         * The record, with the file lists copied (unmodifiable).
         *
         * @param columnFamily               see the record
         * @param status                     see the record
         * @param inputFiles                 see the record
         * @param outputFiles                see the record
         * @param elapsedMicros              see the record
         * @param numCorruptKeys             see the record
         * @param baseInputLevel             see the record
         * @param outputLevel                see the record
         * @param inputRecords               see the record
         * @param outputRecords              see the record
         * @param totalInputBytes            see the record
         * @param totalOutputBytes           see the record
         * @param reason                     see the record
         * @param numInputFiles              see the record
         * @param numInputFilesAtOutputLevel see the record
         */
        public CompactionJobInfo {
            inputFiles = List.copyOf(inputFiles);
            outputFiles = List.copyOf(outputFiles);
        }
    }

    /**
     * A background failure.
     *
     * @param reason what failed: RocksDB's {@code BackgroundErrorReason} code (0 flush,
     *               1 compaction, 2 write callback, 3 memtable, 4 manifest write, 5 flush
     *               without WAL, 6 manifest write without WAL)
     * @param status the failure
     */
    record BackgroundError(int reason, RocksDBException status) {}

    /** A column family's write stall condition ({@code WriteStallCondition}). */
    enum WriteStallCondition {
        /** Writes are delayed (slowed down). */
        DELAYED,
        /** Writes are stopped. */
        STOPPED,
        /** Writes proceed normally. */
        NORMAL
    }

    /**
     * A change of write stall condition ({@code WriteStallInfo}).
     *
     * @param columnFamily the family's name
     * @param current      the new condition
     * @param previous     the previous condition
     */
    record WriteStallInfo(String columnFamily, WriteStallCondition current, WriteStallCondition previous) {}

    /**
     * A sealed memtable ({@code MemTableInfo}).
     *
     * @param columnFamily  the family's name
     * @param firstSeqno    the sequence number of its first entry
     * @param earliestSeqno the sequence number from which it may hold entries
     * @param numEntries    its entries
     * @param numDeletes    its deletions
     */
    record MemTableInfo(String columnFamily, long firstSeqno, long earliestSeqno, long numEntries, long numDeletes) {}

    /**
     * An ingested external file ({@code ExternalFileIngestionInfo}).
     *
     * @param columnFamily     the family's name
     * @param internalFilePath the file's path inside the database
     */
    record ExternalFileIngestionInfo(String columnFamily, String internalFilePath) {}
}
