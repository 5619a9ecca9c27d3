package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.RocksdbjniMapping.Outcome;
import io.rocksffm.RocksdbjniMapping.Result;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * rocksdbjni's database classes against rocksffm, by reflection over the rocksdbjni 11.8.1 jar
 * the tests run with: every public method has a rocksffm method of the same name in the matching
 * class, or a row of {@code docs/rocksdbjni-api-mapping.md} naming the rocksffm method to use or
 * why there is none (a method a database class inherits from rocksdbjni's {@code RocksDB} is
 * looked up once, under {@code RocksDB}). Measures the coverage of the methods RocksDB's C API can
 * back (rows "JNI-only" and "no C function" are not counted) and holds it at 95% or more.
 */
class RocksdbjniApiMappingTest {
    private static final Path MAPPING = Path.of("docs/rocksdbjni-api-mapping.md");

    /** rocksdbjni's classes and the rocksffm class each maps to. */
    private static final Map<String, String> CLASSES = new LinkedHashMap<>();

    static {
        for (String c : List.of("RocksDB", "TransactionDB", "OptimisticTransactionDB", "Transaction", "WriteBatch",
                "WriteBatchWithIndex", "RocksIterator", "Snapshot", "Checkpoint", "BackupEngine", "SstFileWriter",
                "Statistics", "ColumnFamilyHandle", "Env")) {
            CLASSES.put(c, c);
        }
        CLASSES.put("TtlDB", "RocksDB");
    }

    /** The rocksdbjni class a method is listed under: rocksdbjni's {@code RocksDB} for what a database class inherits. */
    private static String listedUnder(Class<?> jni, String name) {
        if (jni.getSimpleName().equals("RocksDB") || !org.rocksdb.RocksDB.class.isAssignableFrom(jni)) { // fully qualified: rocksdbjni's RocksDB beside ours
            return jni.getSimpleName();
        }
        for (Method m : jni.getMethods()) {
            if (m.getName().equals(name) && m.getDeclaringClass() == jni) {
                return jni.getSimpleName(); // declared (or overloaded) by the class itself
            }
        }
        if (name.equals("<init>")) {
            return jni.getSimpleName();
        }
        return "RocksDB";
    }

    @Test
    void everyMethodOfRocksdbjnisDatabaseClassesHasAnEquivalentOrAReason() throws Exception {
        assumeTrue("11.8.1".equals(System.getProperty("rocksffm.test.expectedVersion")),
                "reflects over the rocksdbjni 11.8.1 jar, on the class path of the rocksdbjni-engine run only");
        Result r = RocksdbjniMapping.check(MAPPING, CLASSES, RocksdbjniApiMappingTest::listedUnder);
        assertEquals(Set.of(), r.unmapped(), "rocksdbjni methods with neither a rocksffm method of the same name nor a row in " + MAPPING);
        assertEquals(List.of(), r.wrong());
        assertEquals(Set.of(), r.stale(), "rows for methods rocksdbjni 11.8.1 does not have");
        System.out.printf("[rocksffm] rocksdbjni 11.8.1 database classes: %d method names, %d JNI-only or without a C"
                + " function; of the %d others, %d have a rocksffm method of the same name and %d a mapped one: %.1f%%%n",
                r.outcomes().size(), r.count(Outcome.UNBINDABLE), r.bindable(), r.count(Outcome.SAME),
                r.count(Outcome.MAPPED), 100 * r.coverage());
        assertTrue(r.coverage() >= 0.95, "coverage of bindable method names " + r.coverage() + " is under 95%");
    }

    /**
     * The rows for overloads whose arguments rocksffm takes in another form (a name both have, e.g.
     * {@code compactRange} with {@code byte[]} keys and a family): rocksdbjni has each such overload,
     * rocksffm does not, and the rocksffm overload each row names exists.
     */
    @Test
    void everyOverloadRowNamesRocksdbjnisOverloadAndAnExistingCall() throws Exception {
        assumeTrue("11.8.1".equals(System.getProperty("rocksffm.test.expectedVersion")),
                "reflects over the rocksdbjni 11.8.1 jar, on the class path of the rocksdbjni-engine run only");
        assertEquals(List.of(), RocksdbjniMapping.checkOverloads(MAPPING, CLASSES));
        Set<String> differing = RocksdbjniMapping.differingOverloads(CLASSES);
        System.out.printf("[rocksffm] rocksdbjni 11.8.1 database classes: %d overloads of a name rocksffm has take"
                + " other parameter types in rocksffm (ByteBuffer, offset and String-path forms among them)%n",
                differing.size());
    }
}
