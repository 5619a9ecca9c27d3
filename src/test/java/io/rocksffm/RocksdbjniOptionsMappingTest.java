package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.RocksdbjniMapping.Outcome;
import io.rocksffm.RocksdbjniMapping.Result;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * rocksdbjni's option classes against rocksffm, by reflection over the rocksdbjni 11.8.1 jar the
 * tests run with: every public method has a rocksffm method of the same name in the matching class,
 * or a row of {@code docs/rocksdbjni-options-mapping.md} naming the rocksffm method to use or why
 * there is none. Also measures the coverage: methods with an equivalent among those whose C
 * function exists (rows marked "no C function" or "no C getter" are not counted).
 */
class RocksdbjniOptionsMappingTest {
    private static final Path MAPPING = Path.of("docs/rocksdbjni-options-mapping.md");

    /** rocksdbjni's option classes and the rocksffm class each maps to. */
    private static final Map<String, String> CLASSES = new LinkedHashMap<>();

    static {
        for (String c : List.of("Options", "BlockBasedTableConfig", "BackupEngineOptions", "CompactRangeOptions",
                "FlushOptions", "ReadOptions", "WriteOptions", "EnvOptions", "IngestExternalFileOptions",
                "TransactionDBOptions", "TransactionOptions", "OptimisticTransactionOptions", "TraceOptions")) {
            CLASSES.put(c, c);
        }
        CLASSES.put("DBOptions", "Options");
        CLASSES.put("ColumnFamilyOptions", "Options");
        CLASSES.put("LRUCache", "Cache");
        CLASSES.put("ClockCache", "Cache");
    }

    @Test
    void everyOptionMethodOfRocksdbjniHasAnEquivalentOrAReason() throws Exception {
        assumeTrue("11.8.1".equals(System.getProperty("rocksffm.test.expectedVersion")),
                "reflects over the rocksdbjni 11.8.1 jar, on the class path of the rocksdbjni-engine run only");
        Result r = RocksdbjniMapping.check(MAPPING, CLASSES, (jni, name) -> jni.getSimpleName());
        assertEquals(Set.of(), r.unmapped(), "rocksdbjni methods with neither a rocksffm method of the same name nor a row in " + MAPPING);
        assertEquals(List.of(), r.wrong());
        assertEquals(Set.of(), r.stale(), "rows for methods rocksdbjni 11.8.1 does not have");
        System.out.printf("[rocksffm] rocksdbjni 11.8.1 option classes: %d methods, %d without a C function; of the %d"
                + " with one, %d have a rocksffm method of the same name and %d a mapped one: %.1f%%; not bound: %d%n",
                r.outcomes().size(), r.count(Outcome.UNBINDABLE), r.bindable(), r.count(Outcome.SAME),
                r.count(Outcome.MAPPED), 100 * r.coverage(), r.count(Outcome.NOT_BOUND));
        // the floor only rises: measured when this test was written
        assertTrue(r.coverage() >= 0.95, "coverage fell to " + r.coverage());
    }
}
