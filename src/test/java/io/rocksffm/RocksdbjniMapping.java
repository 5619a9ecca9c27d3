package io.rocksffm;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the two rocksdbjni mapping tests share: reading a mapping table of {@code docs/} (rows
 * {@code | `Class.method` | rocksffm's name or — | note |}), and holding rocksdbjni 11.8.1's public
 * methods of some classes, found by reflection over its jar, against rocksffm's methods and the
 * table's rows.
 */
final class RocksdbjniMapping {
    private RocksdbjniMapping() {}

    /** rocksdbjni's base classes of every native object: their methods are lifecycle, covered by {@code close}. */
    private static final Set<String> LIFECYCLE = Set.of("org.rocksdb.AbstractNativeReference", "org.rocksdb.RocksObject",
            "org.rocksdb.AbstractImmutableNativeReference", "org.rocksdb.RocksMutableObject");

    /** Notes that say RocksDB's C API cannot back the method: not counted in the coverage. */
    private static final List<String> UNBINDABLE = List.of("no C function", "no C getter", "JNI-only");

    /** A row: the rocksffm member to use ({@code —} for none) and the note. */
    record Row(String rocksffm, String note) {}

    /** How a rocksdbjni method is covered. */
    enum Outcome { SAME, MAPPED, UNBINDABLE, NOT_BOUND }

    /** Where a rocksdbjni method is listed: the rocksdbjni class name it is looked up under. */
    interface ListedUnder {
        String of(Class<?> jni, String method) throws ClassNotFoundException;
    }

    /**
     * The outcome of a check.
     *
     * @param unmapped methods with neither a rocksffm method of the same name nor a row
     * @param wrong rows that name no existing member, give no reason, or are stale because rocksffm has the name
     * @param stale rows for methods rocksdbjni does not have
     * @param outcomes each listed method once, with how it is covered
     */
    record Result(Set<String> unmapped, List<String> wrong, Set<String> stale, Map<String, Outcome> outcomes) {
        long count(Outcome o) {
            return outcomes.values().stream().filter(o::equals).count();
        }

        long bindable() {
            return outcomes.size() - count(Outcome.UNBINDABLE);
        }

        double coverage() {
            return (count(Outcome.SAME) + count(Outcome.MAPPED)) / (double) bindable();
        }
    }

    static Map<String, Row> read(Path mapping) throws IOException {
        Pattern row = Pattern.compile("^\\| `(\\w+\\.[\\w<>]+)` \\| (.*?) \\|(.*?)\\|$");
        Map<String, Row> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(mapping)) {
            Matcher m = row.matcher(line);
            if (m.matches()) {
                assertNull(out.put(m.group(1), new Row(m.group(2).replace("`", ""), m.group(3).strip())),
                        "listed twice: " + m.group(1));
            }
        }
        return out;
    }

    static Class<?> rocksffm(String name) {
        try {
            return Class.forName("io.rocksffm." + name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    static boolean hasMethod(Class<?> c, String name) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code target} ("Database.path", "new WriteBatch()", "Cache.newLRUCache") names a public rocksffm member. */
    static boolean exists(String target) {
        Matcher ctor = Pattern.compile("new (\\w+)\\(.*\\)").matcher(target);
        if (ctor.matches()) {
            Class<?> c = rocksffm(ctor.group(1));
            return c != null && c.getConstructors().length > 0;
        }
        int dot = target.indexOf('.');
        Class<?> c = dot < 0 ? null : rocksffm(target.substring(0, dot));
        return c != null && hasMethod(c, target.substring(dot + 1));
    }

    /**
     * Holds the public methods of rocksdbjni's {@code classes} (rocksdbjni's simple name to the
     * rocksffm class it maps to) against rocksffm and the rows of {@code mapping}.
     */
    static Result check(Path mapping, Map<String, String> classes, ListedUnder listedUnder) throws Exception {
        Map<String, Row> rows = read(mapping);
        Set<String> used = new TreeSet<>();
        Set<String> unmapped = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        Map<String, Outcome> outcomes = new TreeMap<>();
        ClassLoader loader = RocksdbjniMapping.class.getClassLoader();
        for (String jniName : classes.keySet()) {
            Class<?> jni = Class.forName("org.rocksdb." + jniName, false, loader); // not initialised: no JNI load
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
                String under = listedUnder.of(jni, name);
                Class<?> ours = rocksffm(classes.getOrDefault(under, under));
                String key = under + "." + name;
                Row row = rows.get(key);
                if (row != null) {
                    used.add(key);
                }
                if (ours != null && hasMethod(ours, name)) {
                    outcomes.put(key, Outcome.SAME);
                    if (row != null) {
                        wrong.add(key + ": rocksffm has the same name; the row is stale");
                    }
                } else if (row == null) {
                    unmapped.add(key);
                } else if (!row.rocksffm().equals("—")) {
                    if (exists(row.rocksffm())) {
                        outcomes.put(key, Outcome.MAPPED);
                    } else {
                        wrong.add(key + ": " + row.rocksffm() + " does not exist");
                    }
                } else if (UNBINDABLE.stream().anyMatch(row.note()::startsWith)) {
                    outcomes.put(key, Outcome.UNBINDABLE);
                } else if (row.note().startsWith("not needed")) {
                    outcomes.put(key, Outcome.MAPPED);
                } else if (row.note().startsWith("not bound")) {
                    outcomes.put(key, Outcome.NOT_BOUND);
                } else {
                    wrong.add(key + ": no rocksffm method, and the note gives no reason: " + row.note());
                }
            }
        }
        Set<String> stale = new TreeSet<>(rows.keySet());
        stale.removeAll(used);
        return new Result(unmapped, wrong, stale, outcomes);
    }

    /**
     * The rows of {@code mapping} for one overload ({@code | `Class.method(Type, ...)` | `Target.method(Type, ...)` or — | note |}):
     * where rocksffm has the name but not rocksdbjni's parameters. Each is checked: rocksdbjni's
     * class has that overload, rocksffm's class of {@code classes} does not (else the row is
     * stale), and the target exists with those parameters (or the note gives a reason).
     *
     * @return the problems found, empty if none; and at least one row must exist
     */
    static List<String> checkOverloads(Path mapping, Map<String, String> classes) throws Exception {
        Pattern row = Pattern.compile("^\\| `(\\w+)\\.(\\w+)\\(([^)]*)\\)` \\| (.*?) \\|(.*?)\\|$");
        Pattern target = Pattern.compile("`(\\w+)\\.(\\w+)\\(([^)]*)\\)`");
        List<String> problems = new ArrayList<>();
        int rows = 0;
        ClassLoader loader = RocksdbjniMapping.class.getClassLoader();
        for (String line : Files.readAllLines(mapping)) {
            Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            rows++;
            String key = m.group(1) + "." + m.group(2) + "(" + m.group(3) + ")";
            List<String> params = parameters(m.group(3));
            Class<?> jni = Class.forName("org.rocksdb." + m.group(1), false, loader); // not initialised: no JNI load
            if (!hasOverload(jni, m.group(2), params)) {
                problems.add(key + ": rocksdbjni has no such overload");
            }
            Class<?> ours = rocksffm(classes.getOrDefault(m.group(1), m.group(1)));
            if (ours != null && hasOverload(ours, m.group(2), params)) {
                problems.add(key + ": rocksffm has this overload; the row is stale");
            }
            Matcher t = target.matcher(m.group(4));
            if (t.matches()) {
                Class<?> c = rocksffm(t.group(1));
                if (c == null || !hasOverload(c, t.group(2), parameters(t.group(3)))) {
                    problems.add(key + ": " + m.group(4) + " does not exist");
                }
            } else if (!m.group(4).equals("—") || UNBINDABLE.stream().noneMatch(m.group(5).strip()::startsWith)) {
                problems.add(key + ": neither a rocksffm overload nor a reason: " + m.group(4) + " | " + m.group(5));
            }
        }
        if (rows == 0) {
            problems.add("no overload rows in " + mapping);
        }
        return problems;
    }

    /**
     * rocksdbjni's overloads (as {@code Class.method(Type, ...)}) of a name rocksffm's class has,
     * whose parameter types (by simple name) no overload of rocksffm's has: calls that keep their
     * name but change their arguments when ported.
     */
    static Set<String> differingOverloads(Map<String, String> classes) throws Exception {
        Set<String> out = new TreeSet<>();
        ClassLoader loader = RocksdbjniMapping.class.getClassLoader();
        for (Map.Entry<String, String> e : classes.entrySet()) {
            Class<?> jni = Class.forName("org.rocksdb." + e.getKey(), false, loader);
            Class<?> ours = rocksffm(e.getValue());
            for (Method m : jni.getMethods()) {
                String declaring = m.getDeclaringClass().getName();
                if (!declaring.startsWith("org.rocksdb.") || LIFECYCLE.contains(declaring)
                        || ours == null || !hasMethod(ours, m.getName())) {
                    continue;
                }
                List<String> params = Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList();
                if (!hasOverload(ours, m.getName(), params)) {
                    out.add(e.getKey() + "." + m.getName() + "(" + String.join(", ", params) + ")");
                }
            }
        }
        return out;
    }

    private static List<String> parameters(String list) {
        return list.isBlank() ? List.of() : List.of(list.split(",\\s*"));
    }

    /** Whether {@code c} has a public method {@code name} whose parameter types' simple names are {@code params}. */
    private static boolean hasOverload(Class<?> c, String name, List<String> params) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)
                    && Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList().equals(params)) {
                return true;
            }
        }
        return false;
    }
}
