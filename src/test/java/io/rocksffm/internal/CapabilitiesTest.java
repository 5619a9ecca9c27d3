package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.internal.capi.HeaderInfo;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capability gate: every C function rocksffm calls is either exported by the engine under
 * test or gated, and the list of functions whose signature changed between the supported engines
 * is the one the headers give.
 */
class CapabilitiesTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Path GENERATED_SETTINGS = Path.of("src/generated/java/io/rocksffm");
    /**
     * The rocksdb_* functions src/main names (calls, $address or $descriptor uses, strings), but
     * for the gate's own lists.
     */
    private static Set<String> functionsNamedInMain(Set<String> known) throws IOException {
        Pattern ident = Pattern.compile("\\brocksdb_[a-z0-9_]+");
        Set<String> out = new TreeSet<>();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            sources.addAll(files.toList());
        }
        try (Stream<Path> files = Files.list(GENERATED_SETTINGS)) { // the bases generated from the settings table
            sources.addAll(files.toList());
        }
        {
            for (Path f : sources.stream().filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("Capabilities.java")).toList()) {
                Matcher m = ident.matcher(Files.readString(f));
                while (m.find()) {
                    if (known.contains(m.group())) {
                        out.add(m.group());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everyFunctionSrcMainNamesIsExportedOrGated() throws IOException {
        Map<String, String> generated = Headers.bindings();
        assertTrue(generated.size() > 1000, "the bindings declare " + generated.size() + " functions");
        Set<String> used = functionsNamedInMain(generated.keySet());
        assertTrue(used.size() > 50, "src/main names " + used.size() + " functions");
        List<String> unsafe = new ArrayList<>();
        int exported = 0;
        for (String f : used) {
            if (Capabilities.exports(f)) {
                exported++;
            } else if (!Capabilities.gated().contains(f)) {
                unsafe.add(f);
            }
        }
        System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": src/main names " + used.size()
                + " C functions, " + exported + " exported, gated and missing: "
                + used.stream().filter(f -> !Capabilities.exports(f)).toList());
        assertEquals(List.of(), unsafe, "called but neither exported by this engine nor behind the capability gate");
        for (String f : used) {
            if (Capabilities.SIGNATURE_CHANGED.containsKey(f)) {
                assertTrue(Capabilities.gated().contains(f), f + " changed its signature: it must be gated");
            }
        }
    }

    @Test
    void gatedFunctionsAreDeclaredByTheBindings() throws IOException {
        Set<String> generated = Headers.bindings().keySet();
        for (String f : Capabilities.gated()) {
            assertTrue(generated.contains(f), f);
        }
        for (String f : Capabilities.SIGNATURE_CHANGED.keySet()) {
            assertTrue(generated.contains(f), f);
        }
    }

    /**
     * For each older header this machine has (Debian's 7.8.3, the 10.10.1 bindings in the
     * project's history, any in {@code -Drocksffm.headers}): the functions whose call changed are
     * exactly the {@link Capabilities#SIGNATURE_CHANGED} entries of later versions, the const-only
     * changes the {@link Capabilities#CONST_ONLY_CHANGES} entries of later versions, and the
     * functions gone from the bindings include {@link Capabilities#REMOVED_IN_11} (exactly those,
     * from a 10.x header).
     */
    @Test
    void signatureChangesAreTheOnesTheHeadersShow() throws IOException {
        Map<String, Map<String, String>> older = Headers.older();
        System.out.println("[rocksffm] older headers compared with the bindings (" + Capabilities.HEADER_VERSION
                + "): " + older.keySet());
        assumeTrue(!older.isEmpty(), "no older header on this machine (Debian's librocksdb-dev, git history)");
        Map<String, String> current = Headers.bindings();
        for (Map.Entry<String, Map<String, String>> header : older.entrySet()) {
            String version = header.getKey();
            Map<String, String> old = header.getValue();
            assertTrue(old.size() > 700, version + " declares " + old.size() + " functions");
            Set<String> changed = new TreeSet<>();
            Set<String> constOnly = new TreeSet<>();
            for (Map.Entry<String, String> e : old.entrySet()) {
                String now = current.get(e.getKey());
                if (now == null || now.equals(e.getValue())) {
                    continue;
                }
                System.out.println("[rocksffm] " + version + " -> bindings, signature changed: " + e.getValue()
                        + "  ->  " + now);
                if (Prototypes.withoutConst(now).equals(Prototypes.withoutConst(e.getValue()))) {
                    constOnly.add(e.getKey());
                } else {
                    changed.add(e.getKey());
                }
            }
            assertEquals(after(Capabilities.SIGNATURE_CHANGED, version), changed, version);
            assertEquals(after(Capabilities.CONST_ONLY_CHANGES, version), constOnly, version);
            Set<String> removed = new TreeSet<>(old.keySet());
            removed.removeAll(current.keySet());
            System.out.println("[rocksffm] declared by " + version + " and not by the bindings: " + removed);
            assertTrue(removed.containsAll(Capabilities.REMOVED_IN_11), version + ": " + removed);
            if (version.startsWith("10.")) {
                assertEquals(new TreeSet<>(Capabilities.REMOVED_IN_11), removed, version);
            }
        }
    }

    /** The functions of {@code since} (function to version) whose version is later than {@code version}. */
    private static Set<String> after(Map<String, String> since, String version) {
        Set<String> out = new TreeSet<>();
        since.forEach((f, v) -> {
            if (Capabilities.compareVersions(version, v) < 0) {
                out.add(f);
            }
        });
        return out;
    }

    @Test
    void bindingsComeFromTheHeaderTheGateAssumes() {
        assertEquals("11.8.1", HeaderInfo.ROCKSDB_VERSION);
        assertEquals(HeaderInfo.ROCKSDB_VERSION, Capabilities.HEADER_VERSION);
        assertTrue(HeaderInfo.HEADER_SHA256.matches("[0-9a-f]{64}"));
    }

    @Test
    void gateFollowsTheEngine() {
        String version = RocksDB.engine().version();
        boolean tenNine = Capabilities.compareVersions(version, "10.9") >= 0;
        assertEquals(tenNine, Capabilities.exports("rocksdb_get_into_buffer_cf"), version);
        assertEquals(tenNine, Capabilities.callable("rocksdb_get_into_buffer_cf"));
        assertEquals(tenNine, Native.GET_INTO_BUFFER);
        assertEquals(tenNine, RocksDB.engine().hasFunction("rocksdb_get_into_buffer_cf"));
        assertTrue(RocksDB.engine().hasFunction("rocksdb_open"));
        assertFalse(RocksDB.engine().hasFunction("rocksdb_no_such_function"));
        // a changed signature is callable only from the version the bindings match
        boolean nine = Capabilities.compareVersions(version, "9.0") >= 0;
        assertTrue(Capabilities.exports("rocksdb_enable_file_deletions"));
        assertEquals(nine, Capabilities.callable("rocksdb_enable_file_deletions"), version);
        if (!nine) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> Capabilities.require("rocksdb_enable_file_deletions"));
            assertTrue(e.getMessage().contains("rocksdb_enable_file_deletions") && e.getMessage().contains(version),
                    e.getMessage());
        }
        // the prefix extractor's create lost a callback in 11.0: the bindings' shape from 11.0 on,
        // OlderShapes' before (a Java prefix extractor works on every engine: PrefixExtractorTest)
        boolean eleven = Capabilities.compareVersions(version, "11.0") >= 0;
        assertEquals(eleven, Capabilities.callable(OlderShapes.SLICETRANSFORM_CREATE), version);
        assertEquals(eleven, !Capabilities.exports("rocksdb_readoptions_set_managed"), version);
        assertEquals(eleven, Capabilities.compareVersions(Capabilities.knownOrInferredVersion(), "11.0") >= 0);
        if (!tenNine) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> Capabilities.require("rocksdb_get_into_buffer_cf"));
            assertTrue(e.getMessage().contains("rocksdb_get_into_buffer_cf") && e.getMessage().contains(version),
                    e.getMessage());
        } else {
            assertDoesNotThrow(() -> Capabilities.require("rocksdb_get_into_buffer_cf"));
        }
    }

    @Test
    void versionsCompareNumerically() {
        assertTrue(Capabilities.compareVersions("10.10.1.1", "10.9") > 0);
        assertTrue(Capabilities.compareVersions("7.8.3", "8.3") < 0);
        assertEquals(0, Capabilities.compareVersions("9.0", "9"));
        assertTrue(Capabilities.compareVersions("9.0.1", "9.0") > 0);
        // the shorter version first
        assertTrue(Capabilities.compareVersions("10.9", "10.10.1.1") < 0);
        assertTrue(Capabilities.compareVersions("9.0", "9.0.1") < 0);
        assertTrue(Capabilities.compareVersions("11", "10.10.1") > 0);
        assertEquals(0, Capabilities.compareVersions("9", "9.0.0"));
    }

    /** Random dotted versions compare as their components do, zero-padded: an antisymmetric order. */
    @Test
    void versionsCompareAsTheirPaddedComponents() {
        Random r = new Random(3);
        for (int i = 0; i < 2_000; i++) {
            int[] a = randomVersion(r);
            int[] b = r.nextInt(4) == 0 ? Arrays.copyOf(a, r.nextInt(5) + 1) : randomVersion(r);
            int expected = Integer.signum(Arrays.compare(Arrays.copyOf(a, 4), Arrays.copyOf(b, 4)));
            String x = dotted(a);
            String y = dotted(b);
            assertEquals(expected, Integer.signum(Capabilities.compareVersions(x, y)), x + " vs " + y);
            assertEquals(-expected, Integer.signum(Capabilities.compareVersions(y, x)), y + " vs " + x);
        }
    }

    private static int[] randomVersion(Random r) {
        int[] v = new int[1 + r.nextInt(4)];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextInt(12);
        }
        return v;
    }

    private static String dotted(int[] v) {
        return Arrays.stream(v).mapToObj(Integer::toString).collect(Collectors.joining("."));
    }

    /**
     * On the engine under test: a function it lacks is refused naming the function and the engine;
     * a function it has passes; a minimum version above the engine's is refused with the reason.
     */
    @Test
    void requireRefusesWhatTheEngineLacks() {
        String version = RocksDB.engine().version();
        String missing = "rocksdb_no_such_function";
        assertFalse(Capabilities.exports(missing));
        assertFalse(Capabilities.callable(missing));
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Capabilities.require(missing));
        assertTrue(e.getMessage().contains("needs " + missing) && e.getMessage().contains(version)
                && e.getMessage().contains("does not export"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> Capabilities.requireSince(missing, "1.0", "why"));
        assertTrue(Capabilities.callable("rocksdb_open"));
        assertDoesNotThrow(() -> Capabilities.require("rocksdb_open"));
        assertDoesNotThrow(() -> Capabilities.requireSince("rocksdb_open", version, "never refused"));
        assertDoesNotThrow(() -> Capabilities.requireSince("rocksdb_open", "1.0", "never refused"));
        String next = (Integer.parseInt(version.split("\\.")[0]) + 1) + ".0";
        UnsupportedOperationException later = assertThrows(UnsupportedOperationException.class,
                () -> Capabilities.requireSince("rocksdb_open", next, "it misbehaves"));
        assertTrue(later.getMessage().contains("needs rocksdb_open") && later.getMessage().contains(version)
                && later.getMessage().contains("before RocksDB " + next + " it misbehaves"), later.getMessage());
        assertTrue(Capabilities.engineAtLeast(version));
        assertTrue(Capabilities.engineAtLeast("1.0"));
        assertFalse(Capabilities.engineAtLeast(next));
        NativeLibrary.Loaded loaded = NativeLibrary.load();
        assertEquals(version + " (" + loaded.source() + (loaded.path() == null ? "" : ", " + loaded.path()) + ")",
                Capabilities.engineDescription());
        assertEquals(version, Capabilities.knownOrInferredVersion(), "the engine under test names its version");
    }

    /**
     * Each function whose signature changed is callable exactly from the version the bindings
     * match, and refused before it naming the version.
     */
    @Test
    void changedSignaturesAreCallableFromTheirVersion() {
        String version = RocksDB.engine().version();
        for (Map.Entry<String, String> e : Capabilities.SIGNATURE_CHANGED.entrySet()) {
            boolean expected = Capabilities.exports(e.getKey()) && Capabilities.compareVersions(version, e.getValue()) >= 0;
            assertEquals(expected, Capabilities.callable(e.getKey()), e.getKey() + " on " + version);
            if (!expected && Capabilities.exports(e.getKey())) {
                UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                        () -> Capabilities.require(e.getKey()));
                assertTrue(refused.getMessage().contains("versions before " + e.getValue()), refused.getMessage());
            }
        }
        // a TTL database's multi-get strips timestamps from RocksDB 9.0 on
        assertEquals(Capabilities.compareVersions(version, "9.0") >= 0, Capabilities.ttlMultiGetStripsTimestamps(), version);
    }

    @Test
    void prototypesNormalizeAwayNamesAndSpacing() {
        String a = Prototypes.normalize("extern ROCKSDB_LIBRARY_API void rocksdb_enable_file_deletions(\n  rocksdb_t* db, unsigned char force, char** errptr)");
        String b = Prototypes.normalize("extern void rocksdb_enable_file_deletions(rocksdb_t *db, unsigned char, char **errptr)");
        assertEquals(a, b);
        assertNotEquals(a, Prototypes.normalize("extern void rocksdb_enable_file_deletions(rocksdb_t *db, char **errptr)"));
        String mutable = Prototypes.normalize("extern size_t rocksdb_f(rocksdb_cache_t *cache)");
        String constant = Prototypes.normalize("extern size_t rocksdb_f(const rocksdb_cache_t *cache)");
        assertNotEquals(mutable, constant);
        assertEquals(Prototypes.withoutConst(mutable), Prototypes.withoutConst(constant));
        assertEquals(Prototypes.normalize("extern void rocksdb_f(void (*cb)(void *, int x), size_t n)"),
                Prototypes.normalize("extern void rocksdb_f(void (*)(void*, int), size_t)"));
        assertEquals(Prototypes.normalize("rocksdb_t* rocksdb_f(void)"), Prototypes.normalize("extern rocksdb_t *rocksdb_f()"));
        assertEquals(Prototypes.normalize("void rocksdb_f(bool b)"), Prototypes.normalize("void rocksdb_f(_Bool)"));
    }

    /**
     * Whether a function is exported is what the engine's symbols say, for every function the
     * bindings declare (all of them on the engine of the bindings' own version), asked for the
     * first time or again.
     */
    @Test
    void exportsAreTheEnginesSymbols() throws IOException {
        RocksDB.engine();
        SymbolLookup symbols = SymbolLookup.loaderLookup();
        boolean headerEngine = HeaderInfo.ROCKSDB_VERSION.equals(RocksDB.engine().version());
        for (String f : Headers.bindings().keySet()) {
            boolean present = symbols.find(f).isPresent();
            assertEquals(present, Capabilities.exports(f), f);
            assertEquals(present, Capabilities.exports(f), f + ", asked again");
            assertTrue(present || !headerEngine, f + " is missing from the engine of the bindings' version");
        }
        String fresh = "rocksdb_no_such_function_" + System.nanoTime();
        assertFalse(Capabilities.exports(fresh));
        assertFalse(Capabilities.callable(fresh));
    }

    /**
     * An engine of unknown version (a library loaded by path) is taken to be the oldest version its
     * exports prove: 11.0 without the function 11.0 removed, 10.9 with it and the function 10.9
     * added, unknown without either; a known version is the version. On the engine under test the
     * inference from its exports never claims a later version than the engine's own.
     */
    @Test
    void anUnknownVersionIsInferredFromTheExports() {
        Set<String> none = Set.of();
        Set<String> tenNine = Set.of("rocksdb_get_into_buffer_cf", "rocksdb_readoptions_set_managed");
        Set<String> eleven = Set.of("rocksdb_get_into_buffer_cf");
        assertEquals("7.8.3", Capabilities.knownOrInferredVersion("7.8.3", tenNine::contains));
        assertEquals("11.8.1", Capabilities.knownOrInferredVersion("11.8.1", none::contains));
        assertNull(Capabilities.knownOrInferredVersion(null, none::contains));
        assertNull(Capabilities.knownOrInferredVersion(null, Set.of("rocksdb_readoptions_set_managed")::contains));
        assertEquals("10.9", Capabilities.knownOrInferredVersion(null, tenNine::contains));
        assertEquals("11.0", Capabilities.knownOrInferredVersion(null, eleven::contains));
        String version = RocksDB.engine().version();
        String inferred = Capabilities.knownOrInferredVersion(null, Capabilities::exports);
        if (inferred != null) {
            assertTrue(Capabilities.compareVersions(inferred, version) <= 0, inferred + " claimed for " + version);
        }
        assertEquals(Capabilities.compareVersions(version, "10.9") >= 0, inferred != null, version);
    }

    /**
     * A function whose signature changed is callable from the version the bindings match on, and
     * refused, saying why, on an engine before it or of unknown version; any other exported
     * function is callable whatever the version, and one not exported never is.
     */
    @Test
    void aChangedSignatureIsCallableFromItsVersionOn() {
        String f = "rocksdb_enable_file_deletions";
        assertEquals("9.0", Capabilities.SIGNATURE_CHANGED.get(f));
        assertNull(Capabilities.reason(f, true, () -> "9.0"));
        assertNull(Capabilities.reason(f, true, () -> "9.0.1"));
        assertNull(Capabilities.reason(f, true, () -> "10"));
        String before = Capabilities.reason(f, true, () -> "8.11.4");
        assertTrue(before.startsWith("needs " + f) && before.contains("signature of versions before 9.0"), before);
        String unknown = Capabilities.reason(f, true, () -> null);
        assertTrue(unknown.contains("changed in RocksDB 9.0") && unknown.endsWith("is unknown"), unknown);
        assertNull(Capabilities.reason("rocksdb_open", true, () -> fail("no version needed")));
        String missing = Capabilities.reason(f, false, () -> fail("no version needed"));
        assertTrue(missing.startsWith("needs " + f) && missing.contains("does not export"), missing);
    }

    /**
     * A refusal names the public method the caller called: the outermost rocksffm frame above the
     * caller's code, its nested class named by the class that encloses it; a call from outside
     * rocksffm is "This call"; code of the caller's in between (a callback that calls rocksffm
     * again) ends the walk at the innermost such call.
     */
    @Test
    void theRefusalNamesThePublicMethodTheCallerCalled(@TempDir Path dir) {
        assertEquals("This call", Capabilities.publicCaller());
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, o);
             ReadOptions ro = new ReadOptions()) {
            db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
            List<String> seen = new ArrayList<>();
            db.forEach(ro, (k, v) -> seen.add(Capabilities.publicCaller()));
            assertEquals(List.of("KeyValueReads.forEach"), seen, "a method of a public interface");
            seen.clear();
            try (Stream<Map.Entry<byte[], byte[]>> entries = db.stream(ro)) {
                entries.forEach(e -> seen.add(Capabilities.publicCaller()));
            }
            assertEquals(List.of("KeyValueReads.tryAdvance"), seen, "a nested class is named by its enclosing one");
            seen.clear();
            try (Stream<Map.Entry<byte[], byte[]>> entries = db.stream(ro)) {
                entries.forEach(e -> db.forEach(ro, (k, v) -> seen.add(Capabilities.publicCaller())));
            }
            assertEquals(List.of("KeyValueReads.forEach"), seen, "the caller's code between two calls ends the walk");
        }
    }

    /**
     * The first version a refusal names is the one the resource (written from RocksDB's history)
     * gives, read here independently; a function it does not list gets none, and the message
     * says none.
     */
    @Test
    void theFirstVersionIsTheResourcesAndNamedInTheRefusal() throws Exception {
        forgetCached("firstVersions"); // read the resource in this test, not in whichever asked first
        Map<String, String> listed = new LinkedHashMap<>();
        try (var in = Capabilities.class.getResourceAsStream("first-versions.txt")) {
            assertNotNull(in);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] parts = line.trim().split("\\s+");
                    assertEquals(2, parts.length, line);
                    assertTrue(parts[1].matches("\\d+(\\.\\d+)+"), line);
                    listed.put(parts[0], parts[1]);
                }
            }
        }
        assertTrue(listed.size() > 100, "the resource lists the functions 7.8.3 lacks");
        for (Map.Entry<String, String> e : listed.entrySet()) {
            assertEquals(e.getValue(), Capabilities.firstVersion(e.getKey()), e.getKey());
            assertTrue(Capabilities.compareVersions(e.getValue(), "7.8.3") > 0, e.getKey() + " is newer than 7.8.3");
        }
        assertNull(Capabilities.firstVersion("rocksdb_no_such_function"));
        assertNull(Capabilities.firstVersion("rocksdb_open"), "7.8.3 has it: not listed");
        String f = listed.keySet().iterator().next();
        String missing = Capabilities.reason(f, false, () -> fail("no version needed"));
        assertEquals("needs " + f + ", which the RocksDB engine " + Capabilities.engineDescription()
                + " does not export (RocksDB has it from " + listed.get(f) + " on)", missing);
        assertEquals("needs rocksdb_no_such_function, which the RocksDB engine " + Capabilities.engineDescription()
                + " does not export", Capabilities.reason("rocksdb_no_such_function", false, () -> fail("no version needed")));
    }

    /**
     * Empties one of the gate's static caches (a field of {@code Capabilities}), so that the next
     * question reads the engine or the resource again: the answers must not depend on the cache.
     */
    private static void forgetCached(String field) throws ReflectiveOperationException {
        Field f = Capabilities.class.getDeclaredField(field);
        f.setAccessible(true);
        if (Modifier.isFinal(f.getModifiers())) {
            ((Map<?, ?>) f.get(null)).clear();
        } else {
            f.set(null, null);
        }
    }

    /** The export cache answers as the engine's symbols do when it is empty, as when it is full. */
    @Test
    void exportsAreLookedUpAfresh() throws Exception {
        assertTrue(Capabilities.exports("rocksdb_open"));
        assertFalse(Capabilities.exports("rocksdb_no_such_function"));
        forgetCached("EXPORTED");
        assertTrue(Capabilities.exports("rocksdb_open"), "looked up again");
        assertFalse(Capabilities.exports("rocksdb_no_such_function"), "looked up again");
        assertEquals(SymbolLookup.loaderLookup().find("rocksdb_writebatch_create").isPresent(),
                Capabilities.exports("rocksdb_writebatch_create"));
    }

    /** The form that is told the Java method names it first, then the C function and the engine. */
    @Test
    void requireWithTheJavaMethodNamesItFirst() {
        String method = "DatabaseAdmin.flush(List, FlushOptions)";
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Capabilities.require(method, "rocksdb_no_such_function"));
        assertEquals(method + " needs rocksdb_no_such_function, which the RocksDB engine "
                + Capabilities.engineDescription() + " does not export", e.getMessage());
        assertDoesNotThrow(() -> Capabilities.require(method, "rocksdb_open"));
        UnsupportedOperationException direct = assertThrows(UnsupportedOperationException.class,
                () -> Capabilities.require("rocksdb_no_such_function"));
        assertTrue(direct.getMessage().startsWith("This call needs rocksdb_no_such_function, which the RocksDB engine "
                + RocksDB.engine().version()), direct.getMessage());
    }
}
