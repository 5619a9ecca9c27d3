package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.LinkOption;

/**
 * One database per directory per process, however its path is spelled (issue 37, case 1): RocksDB
 * tells its own opens apart by the path string, so two writers of one directory through a
 * symbolic link, {@code db/.} or {@code sub/../db} both opened, and their writes corrupted the
 * database. rocksffm opens the directory's real path: a second open under any spelling is refused
 * as a second open under the same one is. (The kill -9 form: {@link CrashDurabilityTest}.)
 */
class PathAliasTest {
    @TempDir
    Path dir;

    private List<Path> aliases(Path db) throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Path link = dir.resolve("link");
        if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, db);
        }
        return List.of(link, db.resolve("."), dir.resolve("sub").resolve("..").resolve(db.getFileName()),
                dir.resolve(".").resolve(db.getFileName()), link.resolve("."));
    }

    private static void assertLocked(RocksDBException e, String what) {
        assertEquals(RocksDBException.Code.IO_ERROR, e.code(), what + ": " + e.getMessage());
        assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("lock hold by current process"),
                what + ": " + e.getMessage());
    }

    @Test
    void aSecondOpenUnderAnotherSpellingIsRefusedLikeOneUnderTheSame() throws Exception {
        Path path = dir.resolve("db");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o)) {
            db.put(bytes("k"), bytes("first"));
            assertLocked(assertThrows(RocksDBException.class, () -> RocksDB.open(path, o)), "same spelling");
            for (Path alias : aliases(path)) {
                assertLocked(assertThrows(RocksDBException.class, () -> RocksDB.open(alias, o)), alias.toString());
                try (TransactionDBOptions t = new TransactionDBOptions()) {
                    assertLocked(assertThrows(RocksDBException.class, () -> TransactionDB.open(alias, o, t)),
                            "TransactionDB " + alias);
                }
                assertLocked(assertThrows(RocksDBException.class, () -> OptimisticTransactionDB.open(alias, o)),
                        "OptimisticTransactionDB " + alias);
                try (RocksDB reader = RocksDB.openReadOnly(alias, o)) { // readers take no lock, as before
                    assertEquals("first", string(reader.get(bytes("k"))));
                }
            }
            assertEquals(path, db.path(), "path() is the caller's spelling");
            db.put(bytes("k"), bytes("second"));
        }
        for (Path alias : aliases(path)) { // reopening under any spelling finds one intact database
            try (Options o = new Options(); RocksDB db = RocksDB.open(alias, o)) {
                assertEquals("second", string(db.get(bytes("k"))));
                db.put(bytes("k"), bytes("second"));
            }
        }
        report("path aliases: a second writer through %d other spellings refused (IO_ERROR lock)", aliases(path).size());
    }

    @Test
    void aDatabaseCreatedThroughALinkedParentIsOneDirectory() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path linkedParent = Files.createSymbolicLink(dir.resolve("parent-link"), real);
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(linkedParent.resolve("db"), o)) { // does not exist yet
            db.put(bytes("k"), bytes("v"));
            assertLocked(assertThrows(RocksDBException.class, () -> RocksDB.open(real.resolve("db"), o)),
                    "created through a linked parent");
        }
        try (Options o = new Options(); RocksDB db = RocksDB.open(real.resolve("db"), o)) {
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }
}
