package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DatabaseAdmin.sortedWalFiles and currentWalFile, checked against the log files in the directory. */
class WalFileTest {
    @TempDir
    Path dir;

    @Test
    void theRecordResolvesAgainstTheWalDirectory() {
        WalFile live = new WalFile("/000012.log", 12, WalFile.Type.ALIVE, 5, 100);
        assertEquals(Path.of("/db/000012.log"), live.in(Path.of("/db")));
        WalFile archived = new WalFile("/archive/000007.log", 7, WalFile.Type.ARCHIVED, 1, 10);
        assertEquals(Path.of("/db/archive/000007.log"), archived.in(Path.of("/db")));
        assertEquals(Path.of("/db/x.log"), new WalFile("x.log", 1, WalFile.Type.ALIVE, 0, 0).in(Path.of("/db")));
        assertThrows(NullPointerException.class, () -> new WalFile(null, 1, WalFile.Type.ALIVE, 0, 0));
        assertThrows(NullPointerException.class, () -> new WalFile("a", 1, null, 0, 0));
        assertThrows(NullPointerException.class, () -> live.in(null));
        assertEquals(WalFile.Type.ARCHIVED, WalFile.Type.of(0));
        assertEquals(WalFile.Type.ALIVE, WalFile.Type.of(1));
        assertThrows(IllegalStateException.class, () -> WalFile.Type.of(2));
    }

    /** With a WAL TTL a flushed log is archived: the list holds it, archived, and the live one, as the directory does. */
    @Test
    void theListMatchesTheLogFiles() throws IOException {
        try (Options base = new Options().setCreateIfMissing(true);
             Options options = Options.fromString(base, "WAL_ttl_seconds=3600");
             RocksDB db = RocksDB.open(dir, options)) {
            if (!Gated.since11("rocksdb_get_sorted_wal_files", db::sortedWalFiles)) {
                Gated.supported("rocksdb_get_current_wal_file", db::currentWalFile);
                return;
            }
            for (int i = 0; i < 10; i++) {
                db.put(bytes("k" + i), bytes("v" + i));
            }
            List<WalFile> before = db.sortedWalFiles();
            assertEquals(1, before.size(), before.toString());
            WalFile first = before.get(0);
            assertEquals(WalFile.Type.ALIVE, first.type());
            assertCurrent(first, db.currentWalFile());
            assertEquals(logFiles(dir), List.of(first.in(dir)));
            assertEquals(number(first.in(dir)), first.logNumber());
            assertEquals(1, first.startSequence()); // the first write's sequence number
            assertEquals(Files.size(first.in(dir)), first.sizeBytes());

            db.flush(true); // a new log; the flushed one goes to the archive
            db.put(bytes("after"), bytes("flush"));
            List<WalFile> after = db.sortedWalFiles();
            assertEquals(2, after.size(), after.toString());
            WalFile archived = after.get(0);
            WalFile current = after.get(1);
            assertEquals(WalFile.Type.ARCHIVED, archived.type());
            assertEquals(first.logNumber(), archived.logNumber());
            assertEquals("/archive/" + first.in(dir).getFileName(), archived.pathName());
            assertEquals(Files.size(archived.in(dir)), archived.sizeBytes());
            assertEquals(first.sizeBytes(), archived.sizeBytes());
            assertEquals(WalFile.Type.ALIVE, current.type());
            assertTrue(current.logNumber() > archived.logNumber());
            assertEquals(11, current.startSequence()); // ten writes before it
            assertCurrent(current, db.currentWalFile());
            assertEquals(logFiles(dir), List.of(current.in(dir)));
            assertEquals(logFiles(dir.resolve("archive")), List.of(archived.in(dir)));
        }
    }

    @Test
    void aClosedDatabaseRefuses() {
        RocksDB db = open(dir);
        db.close();
        assertThrows(IllegalStateException.class, db::sortedWalFiles);
        assertThrows(IllegalStateException.class, db::currentWalFile);
    }

    /** RocksDB leaves the current file's start sequence 0 (it does not read the file for it). */
    private static void assertCurrent(WalFile listed, WalFile current) {
        assertEquals(new WalFile(listed.pathName(), listed.logNumber(), listed.type(), 0, listed.sizeBytes()), current);
    }

    private static List<Path> logFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    private static long number(Path log) {
        String name = log.getFileName().toString();
        return Long.parseLong(name.substring(0, name.length() - ".log".length()));
    }
}
