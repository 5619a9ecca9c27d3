package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
                "TransactionDBOptions", "TransactionOptions", "OptimisticTransactionOptions")) {
            CLASSES.put(c, c);
        }
        CLASSES.put("DBOptions", "Options");
        CLASSES.put("ColumnFamilyOptions", "Options");
        CLASSES.put("LRUCache", "Cache");
        CLASSES.put("ClockCache", "Cache");
    }

    /** rocksdbjni's base classes of every native object: their methods are lifecycle, not settings. */
    private static final Set<String> LIFECYCLE = Set.of("org.rocksdb.AbstractNativeReference", "org.rocksdb.RocksObject",
            "org.rocksdb.AbstractImmutableNativeReference", "org.rocksdb.RocksMutableObject");

    private record Row(String rocksffm, String note) {}

    static Map<String, Row> mapping() throws IOException {
        Pattern row = Pattern.compile("^\\| `(\\w+\\.[\\w<>]+)` \\| (.*?) \\| (.*?) \\|$");
        Map<String, Row> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(MAPPING)) {
            Matcher m = row.matcher(line);
            if (m.matches()) {
                assertNull(out.put(m.group(1), new Row(m.group(2).replace("`", ""), m.group(3))), "listed twice: " + m.group(1));
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

    /** Whether {@code target} ("Options.setX", "new Options()", "Cache.newLRUCache") names a public rocksffm member. */
    private static boolean exists(String target) {
        Matcher ctor = Pattern.compile("new (\\w+)\\(.*\\)").matcher(target);
        if (ctor.matches()) {
            Class<?> c = rocksffm(ctor.group(1));
            return c != null && c.getConstructors().length > 0;
        }
        int dot = target.indexOf('.');
        Class<?> c = rocksffm(target.substring(0, dot));
        String method = target.substring(dot + 1);
        return c != null && hasMethod(c, method);
    }

    private static boolean hasMethod(Class<?> c, String name) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyOptionMethodOfRocksdbjniHasAnEquivalentOrAReason() throws Exception {
        assumeTrue("11.8.1".equals(System.getProperty("rocksffm.test.expectedVersion")),
                "reflects over the rocksdbjni 11.8.1 jar, on the class path of the rocksdbjni-engine run only");
        Map<String, Row> rows = mapping();
        Set<String> used = new TreeSet<>();
        List<String> unmapped = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        int total = 0;
        int same = 0;
        int mapped = 0;
        int noC = 0;
        List<String> notBound = new ArrayList<>();
        ClassLoader loader = getClass().getClassLoader();
        for (Map.Entry<String, String> e : CLASSES.entrySet()) {
            Class<?> jni = Class.forName("org.rocksdb." + e.getKey(), false, loader); // not initialised: no JNI load
            Class<?> ours = rocksffm(e.getValue());
            Set<String> names = new TreeSet<>();
            for (Method m : jni.getMethods()) {
                String declaring = m.getDeclaringClass().getName();
                if (declaring.startsWith("org.rocksdb.") && !LIFECYCLE.contains(declaring)) {
                    names.add(m.getName());
                }
            }
            for (Constructor<?> c : jni.getConstructors()) {
                if (Modifier.isPublic(c.getModifiers())) {
                    names.add("<init>");
                }
            }
            for (String name : names) {
                total++;
                String key = e.getKey() + "." + name;
                Row row = rows.get(key);
                if (row != null) {
                    used.add(key);
                }
                if (ours != null && hasMethod(ours, name)) {
                    same++;
                    if (row != null) {
                        wrong.add(key + ": rocksffm has the same name; the row is stale");
                    }
                } else if (row == null) {
                    unmapped.add(key);
                } else if (!row.rocksffm().equals("—")) {
                    if (exists(row.rocksffm())) {
                        mapped++;
                    } else {
                        wrong.add(key + ": " + row.rocksffm() + " does not exist");
                    }
                } else if (row.note().startsWith("no C function") || row.note().startsWith("no C getter")) {
                    noC++;
                } else if (row.note().startsWith("not bound")) {
                    notBound.add(key);
                } else {
                    wrong.add(key + ": no rocksffm method, and the note gives no reason: " + row.note());
                }
            }
        }
        Set<String> stale = new TreeSet<>(rows.keySet());
        stale.removeAll(used);
        assertEquals(List.of(), unmapped, "rocksdbjni methods with neither a rocksffm method of the same name nor a row in " + MAPPING);
        assertEquals(List.of(), wrong);
        assertEquals(Set.of(), stale, "rows for methods rocksdbjni 11.8.1 does not have");
        int bindable = total - noC;
        double coverage = (same + mapped) / (double) bindable;
        System.out.printf("[rocksffm] rocksdbjni 11.8.1 option classes: %d methods, %d without a C function; of the %d"
                + " with one, %d have a rocksffm method of the same name and %d a mapped one: %.1f%%; not bound: %d%n",
                total, noC, bindable, same, mapped, 100 * coverage, notBound.size());
        // the floor only rises: measured when this test was written
        assertTrue(coverage >= 0.95, "coverage fell to " + coverage);
    }
}
