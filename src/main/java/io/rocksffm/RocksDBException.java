package io.rocksffm;

/**
 * An error reported by RocksDB, carrying the status code parsed from RocksDB's message.
 *
 * {@snippet id="RocksDBException" :
 * try (Options options = new Options();              // create-if-missing off
 *      RocksDB db = RocksDB.open(missing, options)) {
 *     // ...
 * } catch (RocksDBException e) {
 *     code = e.code();   // INVALID_ARGUMENT: the database does not exist
 * }
 * }
 *
 * <p>This is the only exception type rocksffm throws for RocksDB failures. It is unchecked.
 * "Not found" is never an exception: reads return {@code null} or {@code -1} instead.
 * Programming errors (null arguments, closed objects, bad ranges) surface as
 * {@link NullPointerException}, {@link IllegalStateException} or
 * {@link IllegalArgumentException}, not as this type.
 */
public class RocksDBException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** RocksDB's {@code Status::Code}, recognised by the prefix RocksDB puts on its messages. */
    public enum Code {
        /** "NotFound: ..." */
        NOT_FOUND("NotFound"),
        /** "Corruption: ..." */
        CORRUPTION("Corruption"),
        /** "Not implemented: ..." (RocksDB's NotSupported). */
        NOT_SUPPORTED("Not implemented"),
        /** "Invalid argument: ..." */
        INVALID_ARGUMENT("Invalid argument"),
        /** "IO error: ..." (including a database locked by another process or handle). */
        IO_ERROR("IO error"),
        /** "Merge in progress: ..." */
        MERGE_IN_PROGRESS("Merge in progress"),
        /** "Result incomplete: ..." */
        INCOMPLETE("Result incomplete"),
        /** "Shutdown in progress: ..." */
        SHUTDOWN_IN_PROGRESS("Shutdown in progress"),
        /** "Operation timed out: ..." */
        TIMED_OUT("Operation timed out"),
        /** "Operation aborted: ..." */
        ABORTED("Operation aborted"),
        /** "Resource busy: ..." */
        BUSY("Resource busy"),
        /** "Operation expired: ..." */
        EXPIRED("Operation expired"),
        /** "Operation failed. Try again.: ..." */
        TRY_AGAIN("Operation failed. Try again."),
        /** "Compaction too large: ..." */
        COMPACTION_TOO_LARGE("Compaction too large"),
        /** "Column family dropped: ..." */
        COLUMN_FAMILY_DROPPED("Column family dropped"),
        /** A message without a known prefix. */
        UNKNOWN(null);

        private final String prefix;

        Code(String prefix) {
            this.prefix = prefix;
        }

        /**
         * The code whose prefix starts {@code message}, or {@link #UNKNOWN}.
         *
         * @param message a RocksDB status message, or {@code null}
         * @return the code, or {@link #UNKNOWN}
         */
        public static Code of(String message) {
            if (message != null) {
                for (Code c : values()) {
                    if (c.prefix != null && message.startsWith(c.prefix)) {
                        return c;
                    }
                }
            }
            return UNKNOWN;
        }
    }

    /** The status code parsed from the message (part of the serialized form). */
    private final Code code;

    /**
     * An exception for RocksDB's status message, e.g. {@code "IO error: While lock file: ..."}.
     *
     * @param rocksdbMessage the message exactly as RocksDB produced it
     */
    public RocksDBException(String rocksdbMessage) {
        super(rocksdbMessage);
        this.code = Code.of(rocksdbMessage);
    }

    /** {@return the status code parsed from the message} */
    public Code code() {
        return code;
    }
}
