/**
 * RocksDB for Java 22+ through the Foreign Function &amp; Memory API: the whole public API.
 *
 * <h2>A first program</h2>
 * {@snippet id="overview" :
 * try (Options options = new Options().setCreateIfMissing(true);
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("hello".getBytes(UTF_8), "world".getBytes(UTF_8));
 *     byte[] value = db.get("hello".getBytes(UTF_8));   // null when absent
 *
 *     try (Arena arena = Arena.ofConfined(); ReadOptions read = new ReadOptions()) {
 *         MemorySegment key = arena.allocateFrom(ValueLayout.JAVA_BYTE, "hello".getBytes(UTF_8));
 *         MemorySegment out = arena.allocate(64);
 *         long length = db.get(read, key, out);     // -1 when absent; more than 64: out was too small
 *     }
 * }
 * }
 *
 * <p>The examples on each type's page are code the project's tests run. They use
 * {@code import static java.nio.charset.StandardCharsets.UTF_8} and name what they do not make
 * themselves: {@code path} a database directory, {@code dir} a directory for new ones, {@code backups}
 * and {@code file} a backup directory and a file path, {@code db} an open database, {@code options}
 * its {@link io.rocksffm.Options}, {@code read} and {@code write} a {@link io.rocksffm.ReadOptions}
 * and a {@link io.rocksffm.WriteOptions}.
 *
 * <h2>Where to start</h2>
 * <table class="striped">
 *   <caption>The main types by task</caption>
 *   <thead><tr><th scope="col">Task</th><th scope="col">Types</th></tr></thead>
 *   <tbody>
 *     <tr><th scope="row">open a database</th>
 *         <td>{@link io.rocksffm.RocksDB}, {@link io.rocksffm.Options}, {@link io.rocksffm.ColumnFamilyDescriptor},
 *             {@link io.rocksffm.LatestOptions}</td></tr>
 *     <tr><th scope="row">read and write</th>
 *         <td>{@link io.rocksffm.KeyValueReads}, {@link io.rocksffm.KeyValueWrites}, {@link io.rocksffm.ReadOptions},
 *             {@link io.rocksffm.WriteOptions}, {@link io.rocksffm.PinnedValue}</td></tr>
 *     <tr><th scope="row">write atomically</th>
 *         <td>{@link io.rocksffm.WriteBatch}, {@link io.rocksffm.WriteBatchWithIndex}</td></tr>
 *     <tr><th scope="row">scan</th>
 *         <td>{@link io.rocksffm.RocksIterator}, {@link io.rocksffm.Snapshot}</td></tr>
 *     <tr><th scope="row">transactions</th>
 *         <td>{@link io.rocksffm.TransactionDB}, {@link io.rocksffm.OptimisticTransactionDB},
 *             {@link io.rocksffm.Transaction}</td></tr>
 *     <tr><th scope="row">Java code inside RocksDB</th>
 *         <td>{@link io.rocksffm.MergeOperator}, {@link io.rocksffm.Comparator}, {@link io.rocksffm.CompactionFilter},
 *             {@link io.rocksffm.PrefixExtractor}, {@link io.rocksffm.EventListener}</td></tr>
 *     <tr><th scope="row">operate</th>
 *         <td>{@link io.rocksffm.BackupEngine}, {@link io.rocksffm.Checkpoint}, {@link io.rocksffm.SstFileWriter},
 *             {@link io.rocksffm.Statistics}, {@link io.rocksffm.Cache}, {@link io.rocksffm.RateLimiter},
 *             {@link io.rocksffm.WriteBufferManager}</td></tr>
 *     <tr><th scope="row">the engine</th>
 *         <td>{@link io.rocksffm.Engine} ({@link io.rocksffm.RocksDB#engine()})</td></tr>
 *   </tbody>
 * </table>
 *
 * <h2>Rules every type follows</h2>
 * <ul>
 *   <li><b>Ownership.</b> You close what you create; every native object is {@link java.lang.AutoCloseable},
 *       closing twice is harmless, and a closed object throws {@link java.lang.IllegalStateException}
 *       (never a JVM crash). A database refuses to close while iterators, pinned values, snapshots or
 *       other objects made from it are open.</li>
 *   <li><b>Errors.</b> RocksDB's errors are one unchecked {@link io.rocksffm.RocksDBException} with a
 *       {@link io.rocksffm.RocksDBException#code() code}. An absent key is a value ({@code null} or
 *       {@code -1}). Bad arguments are {@link java.lang.NullPointerException} and
 *       {@link java.lang.IllegalArgumentException}; a feature the loaded engine lacks is
 *       {@link java.lang.UnsupportedOperationException} naming the C function.</li>
 *   <li><b>Threads.</b> Databases and options are safe to share across threads; iterators, pinned
 *       values and write batches are confined to the thread that made them. Each type's javadoc
 *       says which.</li>
 * </ul>
 *
 * <p>The guides by task are in the project's {@code docs/} directory.
 */
package io.rocksffm;
