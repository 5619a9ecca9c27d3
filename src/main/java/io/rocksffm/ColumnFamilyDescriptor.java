package io.rocksffm;

import java.util.Objects;

/**
 * A column family to open with a database: its name and the options it is opened with.
 * The options are only read during {@link RocksDB#open(java.nio.file.Path, Options, java.util.List)}.
 *
 * @param name    the family's name (UTF-8, no NUL characters)
 * @param options the family's options (memtable, compression, table format, ...)
 */
public record ColumnFamilyDescriptor(String name, Options options) {
    /** Checks the fields. */
    public ColumnFamilyDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("column family name contains a NUL character");
        }
    }
}
