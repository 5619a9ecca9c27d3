package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Queue;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InfoLoggerTest {
    @TempDir
    Path dir;

    private record Message(InfoLogLevel level, String text) {}

    /** On engines without the callback logger (7.8.3), creation reports the function. */
    private static boolean supported() {
        return Gated.supported("rocksdb_logger_create_callback_logger",
                () -> InfoLogger.of(InfoLogLevel.INFO, (l, m) -> {}).close());
    }

    /** A System.Logger that keeps what it is given. */
    private static final class Recording implements System.Logger {
        final Queue<Level> levels = new ConcurrentLinkedQueue<>();
        final Queue<String> messages = new ConcurrentLinkedQueue<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            levels.add(level);
            messages.add(msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            levels.add(level);
            messages.add(format);
        }
    }

    @Test
    void messagesReachTheSystemLoggerAtTheirLevels() {
        assumeTrue(supported(), "the engine has no callback logger");
        Recording recording = new Recording();
        // --- readme:infoLogger begin
        System.Logger log = recording; // e.g. System.getLogger("rocksdb")
        try (InfoLogger logger = InfoLogger.toSystemLogger(log, InfoLogLevel.INFO)) {
            try (Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
                 RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
                db.put(bytes("k"), bytes("v"));
                db.flush(true);      // RocksDB logs the flush from its background thread
                db.compactRange();
            } // the database's last messages (its close) arrive before the logger may close
        }
        // --- readme:infoLogger end
        assertTrue(recording.messages.stream().anyMatch(m -> m.contains("RocksDB version")), "header lines");
        assertTrue(recording.messages.stream().anyMatch(m -> m.toLowerCase().contains("flush")), "a flush");
        assertTrue(recording.levels.contains(System.Logger.Level.INFO));
        assertFalse(recording.levels.contains(System.Logger.Level.DEBUG), "below the logger's level");
        assertTrue(recording.messages.stream().noneMatch(m -> m.endsWith("\n")));
        // the DB wrote its info log to the logger, not to a LOG file
        assertFalse(dir.resolve("db").resolve("LOG").toFile().exists());
    }

    @Test
    void levelsMapAndFilter() {
        assertEquals(System.Logger.Level.DEBUG, InfoLogger.systemLevel(InfoLogLevel.DEBUG));
        assertEquals(System.Logger.Level.INFO, InfoLogger.systemLevel(InfoLogLevel.INFO));
        assertEquals(System.Logger.Level.INFO, InfoLogger.systemLevel(InfoLogLevel.HEADER));
        assertEquals(System.Logger.Level.WARNING, InfoLogger.systemLevel(InfoLogLevel.WARN));
        assertEquals(System.Logger.Level.ERROR, InfoLogger.systemLevel(InfoLogLevel.ERROR));
        assertEquals(System.Logger.Level.ERROR, InfoLogger.systemLevel(InfoLogLevel.FATAL));
        assumeTrue(supported(), "the engine has no callback logger");
        Set<InfoLogLevel> debug = levelsSeen(InfoLogLevel.DEBUG, "debug");
        Set<InfoLogLevel> warn = levelsSeen(InfoLogLevel.WARN, "warn");
        assertTrue(debug.contains(InfoLogLevel.INFO), debug.toString());
        assertFalse(warn.contains(InfoLogLevel.INFO), warn.toString());
        assertFalse(warn.contains(InfoLogLevel.DEBUG), warn.toString());
    }

    private Set<InfoLogLevel> levelsSeen(InfoLogLevel min, String name) {
        Set<InfoLogLevel> seen = EnumSet.noneOf(InfoLogLevel.class);
        try (InfoLogger logger = InfoLogger.of(min, (l, m) -> {
            synchronized (seen) {
                seen.add(l);
            }
        })) {
            try (Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
                 RocksDB db = RocksDB.open(dir.resolve(name), options)) {
                db.put(bytes("k"), bytes("v"));
                db.flush(true);
            }
            synchronized (seen) {
                return EnumSet.copyOf(seen.isEmpty() ? EnumSet.noneOf(InfoLogLevel.class) : seen);
            }
        }
    }

    @Test
    void aThrowingSinkIsCountedAndTheDatabaseKeepsWorking() {
        assumeTrue(supported(), "the engine has no callback logger");
        try (InfoLogger logger = InfoLogger.of(InfoLogLevel.INFO, (l, m) -> {
            throw new IllegalArgumentException("sink failed");
        })) {
            try (Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
                 RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
                for (int i = 0; i < 100; i++) {
                    db.put(bytes("k" + i), bytes("v" + i));
                }
                db.flush(true);
                db.compactRange();
                assertArrayEquals(bytes("v42"), db.get(bytes("k42")));
            }
            assertTrue(logger.failureCount() > 0);
            assertEquals(logger.messageCount(), logger.failureCount());
            assertEquals("sink failed", logger.lastFailure().getMessage());
        }
    }

    @Test
    void theSinkCannotCallTheDatabase() {
        assumeTrue(supported(), "the engine has no callback logger");
        AtomicReference<RocksDB> database = new AtomicReference<>();
        try (InfoLogger logger = InfoLogger.of(InfoLogLevel.INFO, (l, m) -> {
            RocksDB db = database.get();
            if (db != null) {
                db.get(bytes("k")); // refused: it could deadlock on RocksDB's mutex
            }
        })) {
            try (Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
                 RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
                database.set(db);
                assertTrue(db.families.readsCallJava(db.defaultColumnFamily()), "no critical iterator moves: RocksDB may log");
                db.put(bytes("k"), bytes("v"));
                db.flush(true);
                database.set(null);
            }
            assertTrue(logger.failureCount() > 0);
            assertInstanceOf(IllegalStateException.class, logger.lastFailure());
            assertTrue(logger.lastFailure().getMessage().contains("info logger"), logger.lastFailure().getMessage());
        }
    }

    @Test
    void theLoggerOutlivesItsUsersAndHearsNothingAfterClose() {
        assumeTrue(supported(), "the engine has no callback logger");
        Queue<String> messages = new ConcurrentLinkedQueue<>();
        BiConsumer<InfoLogLevel, String> sink = (l, m) -> messages.add(m);
        InfoLogger logger = InfoLogger.of(InfoLogLevel.INFO, sink);
        Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
        RocksDB db = RocksDB.open(dir.resolve("db"), options);
        IllegalStateException e = assertThrows(IllegalStateException.class, logger::close);
        assertTrue(e.getMessage().contains("options or databases using it"), e.getMessage());
        options.close();
        assertThrows(IllegalStateException.class, logger::close); // the database holds it
        db.put(bytes("k"), bytes("v"));
        db.close();
        int atClose = messages.size();
        assertTrue(atClose > 0);
        assertTrue(messages.stream().anyMatch(m -> m.contains("Shutdown") || m.contains("shutdown")
                || m.contains("close")), "the database's close was heard: " + List.copyOf(messages).subList(
                        Math.max(0, atClose - 5), atClose));
        logger.close();
        logger.close();
        assertTrue(logger.isClosed());
        try (Options other = new Options()) {
            assertThrows(IllegalStateException.class, () -> other.setInfoLogger(logger));
            assertThrows(NullPointerException.class, () -> other.setInfoLogger(null));
        }
        assertEquals(atClose, messages.size());
        assertThrows(NullPointerException.class, () -> InfoLogger.of(null, sink));
        assertThrows(NullPointerException.class, () -> InfoLogger.of(InfoLogLevel.INFO, null));
        assertThrows(NullPointerException.class, () -> InfoLogger.toSystemLogger(null, InfoLogLevel.INFO));
    }

    @Test
    void standardErrorLogger() {
        boolean supported = Gated.supported("rocksdb_logger_create_stderr_logger",
                () -> InfoLogger.stderr(InfoLogLevel.WARN, "[rocksdb] ").close());
        assumeTrue(supported, "the engine has no stderr logger");
        assertThrows(IllegalArgumentException.class, () -> InfoLogger.stderr(InfoLogLevel.WARN, "a\0b"));
        try (InfoLogger logger = InfoLogger.stderr(InfoLogLevel.WARN, "[rocksdb] ")) {
            try (Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);
                 RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
                assertFalse(db.families.readsCallJava(db.defaultColumnFamily()), "the stderr logger runs no Java code");
                db.put(bytes("k"), bytes("v"));
                assertArrayEquals(bytes("v"), db.get(bytes("k")));
            }
            assertEquals(0, logger.messageCount());
        }
    }
}
