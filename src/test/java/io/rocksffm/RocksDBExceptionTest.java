package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDBExceptionTest {
    @TempDir
    Path dir;

    @Test
    void codesComeFromRealRocksDBMessages() {
        // Missing database without create-if-missing: RocksDB says "Invalid argument: ...".
        try (Options o = new Options()) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> RocksDB.open(dir.resolve("missing"), o));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        }
        // A path held by another open handle: RocksDB's lock error is an IO error.
        try (RocksDB db = open(dir.resolve("db"))) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> open(dir.resolve("db")));
            assertEquals(RocksDBException.Code.IO_ERROR, e.code(), e.getMessage());
            assertTrue(e.getMessage().toLowerCase().contains("lock"), e.getMessage());
            db.put(bytes("k"), bytes("v"));
        }
        // Writing to a read-only database: "Not implemented: ...".
        try (Options o = new Options(); RocksDB ro = RocksDB.openReadOnly(dir.resolve("db"), o)) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> ro.put(bytes("a"), bytes("b")));
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
        }
        // error-if-exists on an existing database.
        try (Options o = new Options().setErrorIfExists(true)) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> RocksDB.open(dir.resolve("db"), o));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        }
    }

    @Test
    void everyCodeIsRecognisedByItsPrefix() {
        for (RocksDBException.Code c : RocksDBException.Code.values()) {
            if (c == RocksDBException.Code.UNKNOWN) {
                continue;
            }
            // Build RocksDB's "<prefix>: <detail>" from a message of that code, then parse it back.
            String prefix = prefixOf(c);
            assertEquals(c, new RocksDBException(prefix + ": detail").code(), prefix);
            assertEquals(c, new RocksDBException(prefix).code(), "bare " + prefix);
        }
        assertEquals(RocksDBException.Code.UNKNOWN, new RocksDBException("something else").code());
        assertEquals(RocksDBException.Code.UNKNOWN, new RocksDBException(null).code());
    }

    private static String prefixOf(RocksDBException.Code c) {
        // Status::ToString's words for each code: the enum constant's javadoc quotes them.
        return switch (c) {
            case NOT_FOUND -> "NotFound";
            case CORRUPTION -> "Corruption";
            case NOT_SUPPORTED -> "Not implemented";
            case INVALID_ARGUMENT -> "Invalid argument";
            case IO_ERROR -> "IO error";
            case MERGE_IN_PROGRESS -> "Merge in progress";
            case INCOMPLETE -> "Result incomplete";
            case SHUTDOWN_IN_PROGRESS -> "Shutdown in progress";
            case TIMED_OUT -> "Operation timed out";
            case ABORTED -> "Operation aborted";
            case BUSY -> "Resource busy";
            case EXPIRED -> "Operation expired";
            case TRY_AGAIN -> "Operation failed. Try again.";
            case COMPACTION_TOO_LARGE -> "Compaction too large";
            case COLUMN_FAMILY_DROPPED -> "Column family dropped";
            case UNKNOWN -> throw new AssertionError();
        };
    }
}
