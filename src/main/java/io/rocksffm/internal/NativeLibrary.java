package io.rocksffm.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.io.BufferedReader;
import java.util.Locale;

/**
 * Finds and loads the RocksDB engine whose C API the generated bindings call.
 *
 * <p>The generated code resolves symbols with {@link SymbolLookup#loaderLookup()}, so the engine
 * must be loaded by {@link System#load} from this class loader (the module's). Resolution order:
 * <ol>
 *   <li>the C API is already visible in this class loader (e.g. rocksdbjni loaded its library):
 *       load nothing;</li>
 *   <li>an explicit path: system property {@value #PATH_PROPERTY} or environment variable
 *       {@value #PATH_ENV};</li>
 *   <li>the engine inside an {@code org.rocksdb:rocksdbjni} jar on the class path, loaded through
 *       rocksdbjni's own loader so the process holds one copy;</li>
 *   <li>the system {@code librocksdb} in the usual library directories.</li>
 * </ol>
 * {@code RocksDB.engine()} reports the choice; when no step finds an engine, the error lists
 * every step and why it did not. The choice is logged once to the {@code System.Logger}
 * {@code "io.rocksffm"} (INFO; WARNING for an engine older than the bindings' header), from a
 * daemon thread: the logger's first use costs a fresh JVM some 40 ms of class loading, which
 * stays off the thread opening the first database.
 */
public final class NativeLibrary {
    /** System property naming the engine library file to load. */
    public static final String PATH_PROPERTY = "rocksffm.library.path";
    /** Environment variable naming the engine library file to load. */
    public static final String PATH_ENV = "ROCKSFFM_LIBRARY_PATH";

    private static final String PROBE_SYMBOL = "rocksdb_open";

    /** What was loaded: where it came from, the file, and the version where known. */
    public record Loaded(String source, Path path, String version) {}

    private static volatile Loaded loaded;

    private NativeLibrary() {}

    /** Loads the engine once per class loader; later calls return the first result. */
    public static Loaded load() {
        Loaded l = loaded;
        if (l != null) {
            return l;
        }
        synchronized (NativeLibrary.class) {
            if (loaded == null) {
                Prelink.start();
                boolean ok = false;
                try {
                    loaded = resolve();
                    ok = true;
                } catch (IllegalCallerException e) {
                    throw nativeAccessRefused(e);
                } finally {
                    Prelink.engineLoaded(ok);
                }
                Loaded bound = loaded;
                // System.Logger's first use loads logging classes for some 40 ms: off the caller's thread
                Thread.ofPlatform().daemon().name("rocksffm-engine-log").start(() -> logBinding(bound));
            }
            return loaded;
        }
    }

    /** The logger rocksffm reports the bound engine to. */
    static final String LOGGER = "io.rocksffm";

    /**
     * Logs, once, which engine was bound: at INFO, or at WARNING when it is older than the RocksDB
     * whose header the bindings come from (calls needing newer C functions then throw).
     */
    static void logBinding(Loaded l) {
        System.Logger logger = System.getLogger(LOGGER);
        logger.log(bindingLevel(l), bindingMessage(l));
    }

    static System.Logger.Level bindingLevel(Loaded l) {
        return l.version() != null && Capabilities.compareVersions(l.version(), Capabilities.HEADER_VERSION) < 0
                ? System.Logger.Level.WARNING : System.Logger.Level.INFO;
    }

    static String bindingMessage(Loaded l) {
        String engine = "rocksffm bound the RocksDB engine " + (l.version() == null ? "of unknown version" : l.version())
                + " (" + l.source() + (l.path() == null ? "" : ", " + l.path()) + ")";
        if (bindingLevel(l) == System.Logger.Level.WARNING) {
            return engine + ", older than the RocksDB " + Capabilities.HEADER_VERSION + " rocksffm is generated from:"
                    + " calls that need newer C functions throw UnsupportedOperationException. To bind "
                    + Capabilities.HEADER_VERSION + ", keep org.rocksdb:rocksdbjni:" + Capabilities.HEADER_VERSION
                    + " on the class path or name a library with -D" + PATH_PROPERTY;
        }
        return engine;
    }

    /**
     * The JVM refused rocksffm's native access ({@code --illegal-native-access=deny}, or a later
     * JDK's default): the same exception, saying which flag to add for the way rocksffm was loaded.
     */
    static IllegalCallerException nativeAccessRefused(IllegalCallerException e) {
        IllegalCallerException out = new IllegalCallerException(nativeAccessAdvice(NativeLibrary.class.getModule().isNamed())
                + " (" + e.getMessage() + ")", e);
        return out;
    }

    static String nativeAccessAdvice(boolean modulePath) {
        return "rocksffm needs native access, which this JVM refuses: run java with "
                + (modulePath ? "--enable-native-access=io.rocksffm (rocksffm is on the module path; ALL-UNNAMED is not enough)"
                        : "--enable-native-access=ALL-UNNAMED (rocksffm is on the class path)")
                + ", or say Enable-Native-Access: ALL-UNNAMED in an executable jar's manifest";
    }

    private static boolean capiVisible() {
        return SymbolLookup.loaderLookup().find(PROBE_SYMBOL).isPresent();
    }

    private static Loaded resolve() {
        List<String> tried = new ArrayList<>();

        // 1. Already loaded in this class loader.
        if (capiVisible()) {
            Path p = mappedFileOf(PROBE_SYMBOL);
            String version = versionFromPath(p);
            if (version == null && p != null && p.getFileName().toString().startsWith("librocksdbjni")) {
                version = rocksdbjniClass().map(NativeLibrary::rocksdbjniVersion).orElse(null);
            }
            return new Loaded("preloaded", p, version);
        }
        tried.add("1. C API already loaded in this class loader: no");

        // 2. Explicit path.
        String explicit = System.getProperty(PATH_PROPERTY);
        String origin = "-D" + PATH_PROPERTY;
        if (explicit == null || explicit.isBlank()) {
            explicit = System.getenv(PATH_ENV);
            origin = "$" + PATH_ENV;
        }
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new UnsatisfiedLinkError("rocksffm: " + origin + " names " + p + ", which is not a file");
            }
            System.load(p.toString());
            requireCapi(p.toString());
            return new Loaded("explicit", p, versionFromPath(p));
        }
        tried.add("2. explicit path (-D" + PATH_PROPERTY + " or $" + PATH_ENV + "): not set");

        // 3. rocksdbjni on the class path.
        Optional<Loaded> jni = loadFromRocksdbjni(tried);
        if (jni.isPresent()) {
            return jni.get();
        }

        // 4. System librocksdb.
        for (Path candidate : systemCandidates()) {
            if (Files.isRegularFile(candidate)) {
                System.load(candidate.toString());
                requireCapi(candidate.toString());
                Path real = realPath(candidate);
                return new Loaded("system", real, versionFromPath(real));
            }
        }
        tried.add("4. system librocksdb in " + systemDirs() + ": not found");

        throw new UnsatisfiedLinkError("rocksffm could not find a RocksDB engine. Tried:\n  "
                + String.join("\n  ", tried)
                + "\nFix it in one of these ways: install the system library (Debian/Ubuntu: "
                + "apt-get install librocksdb-dev), set -D" + PATH_PROPERTY
                + "=/path/to/librocksdb.so, or keep org.rocksdb:rocksdbjni (rocksffm's runtime dependency) "
                + "on the class path or the module path.");
    }

    private static void requireCapi(String what) {
        if (!capiVisible()) {
            throw new UnsatisfiedLinkError("rocksffm: " + what + " was loaded but does not export RocksDB's C API ("
                    + PROBE_SYMBOL + " not found)");
        }
    }

    private static Optional<Loaded> loadFromRocksdbjni(List<String> tried) {
        Optional<Class<?>> found = rocksdbjniClass();
        if (found.isEmpty()) {
            Optional<Loaded> unresolved = loadFromUnresolvedModule(tried);
            if (unresolved.isEmpty()) {
                tried.add("3. org.rocksdb:rocksdbjni on the class path or the module path: not present");
            }
            return unresolved;
        }
        Class<?> rocks = found.get();
        MethodHandle loadLibrary;
        try {
            // a method handle rather than Class.getMethod, which loads the classes of the
            // signatures of all of RocksDB's public methods (some 30 ms in a fresh JVM)
            loadLibrary = MethodHandles.publicLookup().findStatic(rocks, "loadLibrary", MethodType.methodType(void.class));
        } catch (ReflectiveOperationException e) {
            tried.add("3. org.rocksdb:rocksdbjni on the class path: present but unusable (" + e + ")");
            return Optional.empty();
        }
        try {
            loadLibrary.invokeExact();
        } catch (Throwable cause) {
            String advice = "";
            for (Throwable t = cause; t != null; t = t.getCause()) {
                if (t instanceof IllegalCallerException) { // rocksdbjni's System.load, refused
                    advice = ". " + nativeAccessAdvice(rocks.getModule().isNamed() || NativeLibrary.class.getModule().isNamed())
                            + (rocks.getModule().isNamed() ? " and --enable-native-access=" + rocks.getModule().getName() : "");
                    break;
                }
            }
            UnsatisfiedLinkError err = new UnsatisfiedLinkError("rocksffm: rocksdbjni failed to load its engine: " + cause + advice);
            err.initCause(cause);
            throw err;
        }
        if (!capiVisible()) {
            tried.add("3. org.rocksdb:rocksdbjni: loaded, but in another class loader than rocksffm's");
            return Optional.empty();
        }
        return Optional.of(new Loaded("rocksdbjni", mappedFileOf(PROBE_SYMBOL), rocksdbjniVersion(rocks)));
    }

    /**
     * rocksdbjni on the module path but not resolved (an automatic module that no module requires,
     * so its classes are not visible): copies its engine file out of the jar and loads it from this
     * class loader. Nothing else in the process can use rocksdbjni then, so there is one copy.
     */
    private static Optional<Loaded> loadFromUnresolvedModule(List<String> tried) {
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath == null || modulePath.isBlank()) {
            return Optional.empty();
        }
        Path[] entries = Stream.of(modulePath.split(File.pathSeparator))
                .filter(e -> !e.isBlank()).map(Path::of).toArray(Path[]::new);
        Optional<ModuleReference> ref;
        try {
            ref = ModuleFinder.of(entries).find("rocksdbjni");
        } catch (RuntimeException e) {   // FindException: an unreadable module path entry
            return Optional.empty();
        }
        if (ref.isEmpty()) {
            return Optional.empty();
        }
        String file = rocksdbjniLibraryFile();
        Path copy;
        try (ModuleReader reader = ref.get().open()) {
            Optional<InputStream> in = reader.open(file);
            if (in.isEmpty()) {
                tried.add("3. rocksdbjni on the module path (not resolved) has no " + file + " for this platform");
                return Optional.empty();
            }
            copy = Files.createTempFile("librocksdbjni", file.substring(file.lastIndexOf('.')));
            copy.toFile().deleteOnExit();
            try (InputStream s = in.get()) {
                Files.copy(s, copy, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            tried.add("3. rocksdbjni on the module path (not resolved): could not copy " + file + " out (" + e + ")");
            return Optional.empty();
        }
        System.load(copy.toString());
        requireCapi(copy + " (" + file + " from " + ref.get().location().orElse(null) + ")");
        return Optional.of(new Loaded("rocksdbjni", copy, ref.get().descriptor().rawVersion().orElse(null)));
    }

    /** The name of rocksdbjni's engine file for this platform, as its jar names them. */
    private static String rocksdbjniLibraryFile() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (os.contains("mac")) {
            return "librocksdbjni-osx-" + (arch.equals("aarch64") ? "arm64" : "x86_64") + ".jnilib";
        }
        if (os.contains("win")) {
            return "librocksdbjni-win64.dll";
        }
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "64";
            case "x86", "i386", "i686" -> "32";
            default -> "-" + arch;   // aarch64, ppc64le, s390x, riscv64
        };
        boolean musl;
        try (Stream<Path> lib = Files.list(Path.of("/lib"))) {
            musl = lib.anyMatch(f -> f.getFileName().toString().startsWith("ld-musl-"));
        } catch (IOException | RuntimeException e) {
            musl = false;
        }
        return "librocksdbjni-linux" + cpu + (musl ? "-musl" : "") + ".so";
    }

    /** rocksdbjni's {@code org.rocksdb.RocksDB}, if this class loader sees it (not initialised). */
    private static Optional<Class<?>> rocksdbjniClass() {
        try {
            return Optional.of(Class.forName("org.rocksdb.RocksDB", false, NativeLibrary.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
    }

    private static String rocksdbjniVersion(Class<?> rocks) {
        CodeSource cs = rocks.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return null;
        }
        try {
            Path file = Path.of(cs.getLocation().toURI()).getFileName();
            if (file == null) {
                return null;
            }
            String name = file.toString();
            // "rocksdbjni-10.10.1-linux64.jar": the dotted numbers after "rocksdbjni-"
            int at = name.indexOf("rocksdbjni-");
            if (at < 0) {
                return null;
            }
            int from = at + "rocksdbjni-".length();
            int end = dottedNumbers(name, from);
            String v = name.substring(from, end);
            return v.indexOf('.') > 0 ? v : null;
        } catch (URISyntaxException | RuntimeException e) { // e.g. a location in no file system here
            return null;
        }
    }

    /**
     * The end of the run of dotted numbers ("10.10.1") starting at {@code from} in {@code s}:
     * digits, and dots each followed by a digit.
     */
    private static int dottedNumbers(String s, int from) {
        int i = from;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                i++;
            } else if (c == '.' && i > from && i + 1 < s.length() && s.charAt(i + 1) >= '0' && s.charAt(i + 1) <= '9') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    private static String multiarch() {
        String arch = System.getProperty("os.arch", "");
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64", "arm64" -> "aarch64-linux-gnu";
            default -> arch + "-linux-gnu";
        };
    }

    private static Set<Path> systemDirs() {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String p : System.getProperty("java.library.path", "").split(File.pathSeparator)) {
            if (!p.isBlank()) {
                dirs.add(Path.of(p));
            }
        }
        for (String d : List.of("/usr/local/lib", "/usr/lib/" + multiarch(), "/lib/" + multiarch(),
                "/usr/lib64", "/usr/lib", "/opt/homebrew/lib")) {
            dirs.add(Path.of(d));
        }
        return dirs;
    }

    private static List<Path> systemCandidates() {
        String mapped = System.mapLibraryName("rocksdb");
        List<Path> out = new ArrayList<>();
        for (Path dir : systemDirs()) {
            out.add(dir.resolve(mapped));
            // Runtime packages ship only the versioned name (librocksdb.so.7.8).
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(f -> f.getFileName().toString().startsWith(mapped + "."))
                            .sorted().forEach(out::add);
                } catch (IOException ignored) {
                    // an unreadable directory simply has no candidates
                }
            }
        }
        return out;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    private static String versionFromPath(Path p) {
        if (p == null) {
            return null;
        }
        // "librocksdb.so.7.8.3": the digits and dots after ".so." (two or three numbers)
        String name = p.getFileName().toString();
        int at = name.lastIndexOf(".so.");
        if (at < 0) {
            return null;
        }
        String v = name.substring(at + 4);
        int dots = 0;
        for (int i = 0; i < v.length(); i++) {
            dots += v.charAt(i) == '.' ? 1 : 0;
        }
        return dottedNumbers(v, 0) == v.length() && dots >= 1 && dots <= 2 ? v : null;
    }

    /** The file mapped at the address of {@code symbol}, read from /proc/self/maps (Linux); else null. */
    private static Path mappedFileOf(String symbol) {
        Optional<MemorySegment> sym = SymbolLookup.loaderLookup().find(symbol);
        Path maps = Path.of("/proc/self/maps");
        if (sym.isEmpty() || !Files.isReadable(maps)) {
            return null;
        }
        long addr = sym.get().address();
        // plain string handling rather than streams and regular expressions: this runs while a
        // fresh JVM opens its first database, where every class it loads counts
        try (BufferedReader in = Files.newBufferedReader(maps)) {
            for (String line; (line = in.readLine()) != null; ) {
                // "lo-hi perms offset dev inode /path"
                int dash = line.indexOf('-');
                int space = line.indexOf(' ');
                int slash = line.indexOf('/');
                if (dash <= 0 || space <= dash || slash < 0) {
                    continue;
                }
                long lo = Long.parseUnsignedLong(line, 0, dash, 16);
                long hi = Long.parseUnsignedLong(line, dash + 1, space, 16);
                if (Long.compareUnsigned(addr, lo) >= 0 && Long.compareUnsigned(addr, hi) < 0) {
                    return Path.of(line.substring(slash).trim());
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
