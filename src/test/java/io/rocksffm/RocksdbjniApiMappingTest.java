package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** rocksdbjni's base classes of every native object: their methods are lifecycle, covered by {@code close}. */
    private static final Set<String> LIFECYCLE = Set.of("org.rocksdb.AbstractNativeReference", "org.rocksdb.RocksObject",
            "org.rocksdb.AbstractImmutableNativeReference", "org.rocksdb.RocksMutableObject");

    private record Row(String rocksffm, String note) {}

    static Map<String, Row> mapping() throws IOException {
        Pattern row = Pattern.compile("^\\| `(\\w+\\.[\\w<>]+)` \\| (.*?) \\|(.*?)\\|$");
        Map<String, Row> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(MAPPING)) {
            Matcher m = row.matcher(line);
            if (m.matches()) {
                assertNull(out.put(m.group(1), new Row(m.group(2).replace("`", ""), m.group(3).strip())), "listed twice: " + m.group(1));
            }
        }
        return out;
    }

    private static Class<?> rocksffm(String name) {
        try {
            return Class.forName("io.rocksffm." + name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static boolean hasMethod(Class<?> c, String name) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code target} ("Database.path", "new WriteBatch()") names a public rocksffm member. */
    private static boolean exists(String target) {
        Matcher ctor = Pattern.compile("new (\\w+)\\(\\)").matcher(target);
        if (ctor.matches()) {
            Class<?> c = rocksffm(ctor.group(1));
            return c != null && c.getConstructors().length > 0;
        }
        int dot = target.indexOf('.');
        Class<?> c = dot < 0 ? null : rocksffm(target.substring(0, dot));
        return c != null && hasMethod(c, target.substring(dot + 1));
    }

    /** The rocksdbjni class a method is listed under: rocksdbjni's {@code RocksDB} for what a database class inherits. */
    private static String listedUnder(Class<?> jni, String name) throws ClassNotFoundException {
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
        Map<String, Row> rows = mapping();
        Set<String> used = new TreeSet<>();
        Set<String> unmapped = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        Map<String, String> outcome = new TreeMap<>(); // each listed method once: same, mapped, noC, notBound
        ClassLoader loader = getClass().getClassLoader();
        for (Map.Entry<String, String> e : CLASSES.entrySet()) {
            Class<?> jni = Class.forName("org.rocksdb." + e.getKey(), false, loader); // not initialised: no JNI load
            Set<String> names = new TreeSet<>();
            for (Method m : jni.getMethods()) {
                String declaring = m.getDeclaringClass().getName();
                if (declaring.startsWith("org.rocksdb.") && !LIFECYCLE.contains(declaring)) {
                    names.add(m.getName());
                }
            }
            if (jni.getConstructors().length > 0) {
                names.add("<init>");
            }
            for (String name : names) {
                String under = listedUnder(jni, name);
                Class<?> ours = rocksffm(CLASSES.getOrDefault(under, under));
                String key = under + "." + name;
                Row row = rows.get(key);
                if (row != null) {
                    used.add(key);
                }
                if (ours != null && hasMethod(ours, name)) {
                    outcome.put(key, "same");
                    if (row != null) {
                        wrong.add(key + ": rocksffm has the same name; the row is stale");
                    }
                } else if (row == null) {
                    unmapped.add(key);
                } else if (!row.rocksffm().equals("—")) {
                    if (exists(row.rocksffm())) {
                        outcome.put(key, "mapped");
                    } else {
                        wrong.add(key + ": " + row.rocksffm() + " does not exist");
                    }
                } else if (row.note().startsWith("no C function") || row.note().startsWith("JNI-only")) {
                    outcome.put(key, "unbindable");
                } else if (row.note().startsWith("not bound") || row.note().startsWith("not needed")) {
                    outcome.put(key, row.note().startsWith("not needed") ? "mapped" : "notBound");
                } else {
                    wrong.add(key + ": no rocksffm method, and the note gives no reason: " + row.note());
                }
            }
        }
        Set<String> stale = new TreeSet<>(rows.keySet());
        stale.removeAll(used);
        assertEquals(Set.of(), unmapped, "rocksdbjni methods with neither a rocksffm method of the same name nor a row in " + MAPPING);
        assertEquals(List.of(), wrong);
        assertEquals(Set.of(), stale, "rows for methods rocksdbjni 11.8.1 does not have");
        long same = outcome.values().stream().filter("same"::equals).count();
        long mapped = outcome.values().stream().filter("mapped"::equals).count();
        long unbindable = outcome.values().stream().filter("unbindable"::equals).count();
        long bindable = outcome.size() - unbindable;
        double coverage = (same + mapped) / (double) bindable;
        System.out.printf("[rocksffm] rocksdbjni 11.8.1 database classes: %d method names, %d JNI-only or without a C"
                + " function; of the %d others, %d have a rocksffm method of the same name and %d a mapped one: %.1f%%%n",
                outcome.size(), unbindable, bindable, same, mapped, 100 * coverage);
        assertTrue(coverage >= 0.95, "coverage of bindable method names " + coverage + " is under 95%");
    }
}
