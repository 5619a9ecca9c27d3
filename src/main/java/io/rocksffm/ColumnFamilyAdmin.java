package io.rocksffm;

import java.util.List;

/**
 * The administration of a database's column families beyond creating and dropping one:
 * creating several at once, creating one from exported table files, and reading a family's table
 * files by level. Every {@link Database}
 * offers them through {@link DatabaseAdmin}. Thread-safe; a closed database, family or options
 * object throws {@link IllegalStateException}, a failure {@link RocksDBException}.
 *
 * {@snippet id="ColumnFamilyAdmin" :
 * List<ColumnFamilyHandle> made = db.createColumnFamilies(options, List.of("events", "users"));
 * ColumnFamilyHandle events = made.get(0);   // owned by the database, like createColumnFamily's
 * db.put(events, "e1".getBytes(UTF_8), "login".getBytes(UTF_8));
 * db.flush(events, true);
 * ColumnFamilyMetaData files = db.getColumnFamilyMetaData(events);   // one table file, at level 0
 * }
 */
public sealed interface ColumnFamilyAdmin permits DatabaseAdmin {

    /**
     * Creates the column families {@code names}, all with {@code options}, in one call
     * ({@code rocksdb_create_column_families}), as {@link DatabaseAdmin#createColumnFamily} does
     * for one: the handles are owned by the database, the options' comparator, merge operator and
     * other Java objects are retained for the families' lifetime, and the names must be distinct
     * and new. RocksDB creates them one after another: when one fails (its name exists, say) the
     * ones before it stay created, and their handles are open ({@link DatabaseAdmin#columnFamily}).
     * On a {@link TransactionDB} they are created one by one through the transaction database (its
     * lock manager must know them), with the same outcome.
     *
     * @param options the options of every new family (read during the call)
     * @param names   the new families' names, distinct, none holding a NUL
     * @return the new families' handles, in the order of {@code names}
     * @throws IllegalArgumentException if {@code names} is empty, repeats a name or holds a bad one
     * @throws IllegalStateException if the database or options are closed
     * @throws RocksDBException e.g. if a family of one of the names exists (the ones before it are created)
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_create_column_families} (7.8.3)
     */
    List<ColumnFamilyHandle> createColumnFamilies(Options options, List<String> names);

    /**
     * {@code family}'s table files by level ({@code GetColumnFamilyMetaData}), copied into Java
     * records: the total size and file count, and each level's files with their names, sizes and
     * key ranges. The same files {@link DatabaseAdmin#liveFiles()} lists for the family.
     *
     * @param family the column family
     * @return its metadata, a snapshot
     * @throws IllegalStateException if the database or family is closed
     */
    ColumnFamilyMetaData getColumnFamilyMetaData(ColumnFamilyHandle family);

    /**
     * {@link #getColumnFamilyMetaData(ColumnFamilyHandle)} of the default column family.
     *
     * @return its metadata, a snapshot
     * @throws IllegalStateException if the database is closed
     */
    ColumnFamilyMetaData getColumnFamilyMetaData();

    /**
     * Creates the column family {@code name} from the table files of an export
     * ({@link Checkpoint#exportColumnFamily}, {@code CreateColumnFamilyWithImport}): the family
     * holds exactly the exported data, at the exported levels. The files are copied, hard-linked
     * or moved in ({@link ImportColumnFamilyOptions#setMoveFiles}); the metadata can be closed
     * afterwards. {@code options} must name the comparator the export was ordered by
     * ({@link ExportImportFilesMetaData#comparatorName()}). The handle is owned by the database,
     * as {@link DatabaseAdmin#createColumnFamily}'s.
     *
     * @param name          the new family's name (not one the database has), without NUL
     * @param options       the new family's options (read during the call)
     * @param importOptions the import's settings (read during the call)
     * @param metadata      what the export wrote (read during the call)
     * @return the new family's handle
     * @throws IllegalArgumentException if {@code name} holds a NUL
     * @throws IllegalStateException if the database or an argument is closed
     * @throws RocksDBException e.g. if the family exists, the comparators differ or a file is missing
     * @throws UnsupportedOperationException on a {@link TransactionDB} (the C API has no import
     *         through one), or if the engine lacks {@code rocksdb_create_column_family_with_import} (7.8.3, 10.1.3)
     */
    ColumnFamilyHandle createColumnFamilyWithImport(String name, Options options,
                                                            ImportColumnFamilyOptions importOptions,
                                                            ExportImportFilesMetaData metadata);
}
