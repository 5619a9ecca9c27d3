package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimisticTransactionOptionsTest {
    @TempDir
    Path dir;

    @Test
    void setSnapshotGivesTheTransactionASnapshot() {
        try (OptimisticTransactionDB db = OptimisticTransactionDBTest.openOpt(dir);
             OptimisticTransactionOptions on = new OptimisticTransactionOptions().setSetSnapshot(true);
             OptimisticTransactionOptions off = new OptimisticTransactionOptions().setSetSnapshot(false)) {
            try (Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, off)) {
                assertNull(tx.getSnapshot());
                tx.rollback();
            }
            try (Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, on)) {
                Snapshot s = tx.getSnapshot();
                assertNotNull(s);
                s.close();
                tx.rollback();
            }
        }
    }

    @Test
    void closed() {
        OptimisticTransactionOptions o = new OptimisticTransactionOptions();
        o.close();
        o.close();
        assertThrows(IllegalStateException.class, () -> o.setSetSnapshot(true));
    }
}
