package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * A merge operator written in Java, which RocksDB calls to combine the operands of
 * {@link KeyValueWrites#merge merge} writes with a key's value: in reads, flushes and compactions.
 * Set it on the {@link Options} of a database or column family ({@link Options#setMergeOperator}).
 *
 * {@snippet id="MergeOperator" :
 * ValueLayout.OfLong number = ValueLayout.JAVA_LONG_UNALIGNED;   // values: one long each
 * MergeOperator max = new MergeOperator() {
 *     public String name() { return "max"; }
 *     public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands,
 *                           ValueOutput result) {
 *         long max = existing == null ? Long.MIN_VALUE : existing.get(number, 0);
 *         for (int i = 0; i < operands.size(); i++) {
 *             max = Math.max(max, operands.get(i).get(number, 0));
 *         }
 *         result.allocate(8).set(number, 0, max);
 *     }
 * };
 * options.setMergeOperator(max);   // db.merge(key, value) then keeps the largest value
 * }
 *
 * <p><b>Memory.</b> The key, the existing value and the operands are zero-copy views of RocksDB's
 * memory, read-only, valid only during the call (using one afterwards throws
 * {@link IllegalStateException}, never reads freed memory). The result is written into memory
 * rocksffm provides ({@link ValueOutput}); RocksDB copies it when the call returns. A segment
 * from {@link ValueOutput#allocate} dies with the call too: writing a kept one throws.
 *
 * <p><b>Calling databases.</b> From inside the call, any call into a database that runs Java code
 * (a merge operator, comparator, compaction filter, prefix extractor or event listener set on its
 * options), this one's included, throws {@link IllegalStateException} naming the callback before
 * it reaches RocksDB: RocksDB keeps per-thread state during a read, and a read of the same family
 * from inside its merge crashed it; closing the database deadlocked. Databases without Java code may be called.
 *
 * <p><b>Threads.</b> RocksDB calls an operator from many threads at once (readers, flush and
 * compaction threads): implementations must be thread-safe and should not block.
 *
 * <p><b>Failures.</b> An exception thrown by {@link #fullMerge} fails the merge: the read that
 * needed it throws {@link RocksDBException} (code {@code CORRUPTION}, RocksDB's status for a failed
 * merge) carrying the Java exception as its cause and in its message. A flush or compaction
 * that needs it, on RocksDB's threads, either fails (the database then refuses writes until it is
 * reopened) or keeps the operands, as the engine version decides; no data is lost, and reads of
 * the key fail as long as the operator does. An exception from {@link #partialMerge} counts as "cannot
 * combine these": RocksDB keeps the operands. Nothing a merge operator throws crashes the JVM.
 *
 * <p>The ready-made operators {@link UInt64AddOperator} and {@link StringAppendOperator} are
 * written in Java and produce the same bytes as RocksDB's C++ ones.
 */
public interface MergeOperator {
    /**
     * The operator's name: RocksDB records it in the database's options file. Called once, when
     * the operator is set on options.
     *
     * @return the name, without NUL characters
     */
    String name();

    /**
     * Combines the existing value (if any) with the operands, oldest first, and writes the new
     * value into {@code result}.
     *
     * @param key      the key (read-only, valid during the call)
     * @param existing the existing value (read-only, valid during the call), or null when the key
     *                 has none (absent or deleted)
     * @param operands the merge operands, oldest first (at least one)
     * @param result   where to write the new value (it must be set)
     * @throws RuntimeException to fail the merge (see the class comment)
     */
    void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands, ValueOutput result);

    /**
     * Combines two or more operands into one, when the operator can (an optimisation for flushes
     * and compactions): writes the combined operand into {@code result} and returns true, or returns
     * false to keep the operands as they are. The default returns false.
     *
     * @param key      the key (read-only, valid during the call)
     * @param operands the operands, oldest first (at least two)
     * @param result   where to write the combined operand when returning true
     * @return whether {@code result} holds the combined operand
     */
    default boolean partialMerge(MemorySegment key, MergeOperands operands, ValueOutput result) {
        return false;
    }
}
