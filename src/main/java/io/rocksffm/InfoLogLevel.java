package io.rocksffm;

import io.rocksffm.internal.Ids;

/**
 * The least severe messages RocksDB writes to its info log ({@code LOG} in the database
 * directory), set with {@link Options#setInfoLogLevel}. Ids follow RocksDB's
 * {@code InfoLogLevel}.
 */
public enum InfoLogLevel {
    /** Everything, including debugging detail. */
    DEBUG(0),
    /** Informational messages and above (RocksDB's default). */
    INFO(1),
    /** Warnings and above. */
    WARN(2),
    /** Errors and above. */
    ERROR(3),
    /** Only fatal errors. */
    FATAL(4),
    /** Only the header lines RocksDB writes at open. */
    HEADER(5);

    final int id;

    InfoLogLevel(int id) {
        this.id = id;
    }

    static InfoLogLevel of(int id) {
        return Ids.of(values(), v -> v.id, id, "info log level");
    }
}
