package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering the README's "Architecture" section describes, checked on the sources: every API
 * class calls only the C functions of its own object (its prefix), the internal package knows no
 * API type but the exception, and the module exports only the API package.
 */
class ArchitectureTest {
    private static final Path API = Path.of("src/main/java/io/rocksffm");
    private static final Path INTERNAL = API.resolve("internal");
    private static final Path GENERATED = Path.of("src/generated/java/io/rocksffm/internal/capi");
    private static final Path GENERATED_SETTINGS = Path.of("src/generated/java/io/rocksffm");

    /**
     * Which C functions each API class may call: its object's prefix, or single functions that
     * create or release it in the database's namespace. A function no entry claims belongs to the
     * database, i.e. to {@code RocksDB} and the package-private parts it delegates to.
     */
    private static final Map<String, List<String>> OWN = new LinkedHashMap<>();

    static {
        OWN.put("Options", List.of("rocksdb_options_"));
        OWN.put("DerivedOptions", List.of("rocksdb_get_options_from_string"));
        OWN.put("ReadOptions", List.of("rocksdb_readoptions_"));
        OWN.put("WriteOptions", List.of("rocksdb_writeoptions_"));
        OWN.put("FlushOptions", List.of("rocksdb_flushoptions_"));
        OWN.put("Cache", List.of("rocksdb_cache_"));
        OWN.put("BlockBasedTableConfig", List.of("rocksdb_block_based_options_"));
        OWN.put("FilterPolicy", List.of("rocksdb_filterpolicy_"));
        OWN.put("Checkpoint", List.of("rocksdb_checkpoint_"));
        OWN.put("ColumnFamilyHandle", List.of("rocksdb_column_family_handle_"));
        OWN.put("RocksIterator", List.of("rocksdb_iter_", "rocksdb_create_iterator_cf"));
        OWN.put("Snapshot", List.of("rocksdb_snapshot_", "rocksdb_create_snapshot", "rocksdb_release_snapshot"));
        OWN.put("WriteBatch", List.of("rocksdb_writebatch_"));
        OWN.put("NativeWriteBatch", List.of("rocksdb_writebatch_"));
        OWN.put("PinnedValue", List.of("rocksdb_pinnableslice_"));
        OWN.put("RateLimiter", List.of("rocksdb_ratelimiter_"));
        OWN.put("WriteBufferManager", List.of("rocksdb_write_buffer_manager_"));
        OWN.put("EventListeners", List.of("rocksdb_eventlistener_", "rocksdb_flushjobinfo_", "rocksdb_compactionjobinfo_",
                "rocksdb_externalfileingestioninfo_", "rocksdb_writestallinfo_", "rocksdb_memtableinfo_",
                "rocksdb_status_ptr_get_error"));
        // Java code inside RocksDB: the public types are interfaces users implement; a
        // package-private Native* class binds each C object.
        OWN.put("NativeMergeOperator", List.of("rocksdb_mergeoperator_"));
        OWN.put("NativeComparator", List.of("rocksdb_comparator_"));
        OWN.put("NativeCompactionFilter", List.of("rocksdb_compactionfilter_", "rocksdb_compactionfilterfactory_",
                "rocksdb_compactionfiltercontext_"));
        OWN.put("NativeSliceTransform", List.of("rocksdb_slicetransform_"));
        OWN.put("TransactionDBOptions", List.of("rocksdb_transactiondb_options_"));
        OWN.put("TransactionOptions", List.of("rocksdb_transaction_options_"));
        OWN.put("OptimisticTransactionOptions", List.of("rocksdb_optimistictransaction_options_"));
        OWN.put("TransactionDB", List.of("rocksdb_transactiondb_", "rocksdb_transaction_begin"));
        OWN.put("OptimisticTransactionDB", List.of("rocksdb_optimistictransactiondb_",
                "rocksdb_optimistictransaction_begin"));
        OWN.put("Transaction", List.of("rocksdb_transaction_"));
        OWN.put("WriteBatchWithIndex", List.of("rocksdb_writebatch_wi_"));
        // operations (issue 16): backups, table files and ingestion, statistics, options files
        OWN.put("BackupEngine", List.of("rocksdb_backup_engine_"));
        OWN.put("BackupEngineOptions", List.of("rocksdb_backup_engine_options_"));
        OWN.put("RestoreOptions", List.of("rocksdb_restore_options_"));
        OWN.put("SstFileWriter", List.of("rocksdb_sstfilewriter_"));
        OWN.put("EnvOptions", List.of("rocksdb_envoptions_"));
        OWN.put("IngestExternalFileOptions", List.of("rocksdb_ingestexternalfileoptions_"));
        OWN.put("Statistics", List.of("rocksdb_options_statistics_", "rocksdb_statistics_histogram_data_"));
        // RocksDB 11 administration (issue 30)
        OWN.put("CompactionOptions", List.of("rocksdb_compaction_options_"));
        OWN.put("CreateBackupOptions", List.of("rocksdb_create_backup_options_"));
        // typed options and table settings (issue 32)
        OWN.put("UniversalCompactionOptions", List.of("rocksdb_universal_compaction_options_"));
        OWN.put("FifoCompactionOptions", List.of("rocksdb_fifo_compaction_options_"));
        OWN.put("CompactRangeOptions", List.of("rocksdb_compactoptions_"));
        // observability and environment (issue 32)
        OWN.put("PerfContext", List.of("rocksdb_perfcontext_", "rocksdb_set_perf_level"));
        OWN.put("InfoLogger", List.of("rocksdb_logger_"));
        OWN.put("SstFileManager", List.of("rocksdb_sst_file_manager_"));
        OWN.put("Env", List.of("rocksdb_create_mem_env", "rocksdb_create_default_env", "rocksdb_env_"));
        OWN.put("ColumnFamilyMetaData", List.of("rocksdb_column_family_metadata_", "rocksdb_level_metadata_",
                "rocksdb_sst_file_metadata_"));
        OWN.put("WaitForCompactOptions", List.of("rocksdb_wait_for_compact_options_"));
        OWN.put("CuckooTableConfig", List.of("rocksdb_cuckoo_options_"));
        OWN.put("ImportColumnFamilyOptions", List.of("rocksdb_import_column_family_options_"));
        OWN.put("ExportImportFilesMetaData", List.of("rocksdb_export_import_files_metadata_"));
        OWN.put("LiveFile", List.of("rocksdb_livefiles_"));
        OWN.put("TraceOptions", List.of("rocksdb_trace_options_"));
    }

    /** The package-private classes that are parts of the database object. */
    private static final Set<String> DATABASE = Set.of("RocksDB", "Database", "Opening", "ColumnFamilies",
            "OptimisticTransactionDB", "FileCompaction", "ChangeCapture", "TimestampedDB");

    private static Set<String> generatedFunctions() throws IOException {
        Pattern p = Pattern.compile("public static MemorySegment (rocksdb_\\w+)\\$address\\(\\)");
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(GENERATED)) {
            for (Path f : files.toList()) {
                Matcher m = p.matcher(Files.readString(f));
                while (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    /** The class whose C object {@code function} belongs to ({@code "RocksDB"} for the database's). */
    private static String owner(String function) {
        String best = "RocksDB";
        int bestLength = 0;
        for (Map.Entry<String, List<String>> e : OWN.entrySet()) {
            for (String prefix : e.getValue()) {
                boolean matches = prefix.endsWith("_") ? function.startsWith(prefix) : function.equals(prefix);
                if (matches && prefix.length() > bestLength) {
                    best = e.getKey();
                    bestLength = prefix.length();
                }
            }
        }
        return best;
    }

    private static String stripComments(String code) {
        return code.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }

    @Test
    void apiClassesCallOnlyTheirOwnCFunctions() throws IOException {
        Set<String> functions = generatedFunctions();
        Pattern ident = Pattern.compile("\\brocksdb_[a-z0-9_]+");
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(API)) {
            sources.addAll(files.filter(p -> p.toString().endsWith(".java")).toList());
        }
        // the generated settings bases: OptionsSettings is part of Options, and so on
        try (Stream<Path> files = Files.list(GENERATED_SETTINGS)) {
            sources.addAll(files.filter(p -> p.toString().endsWith("Settings.java")).toList());
        }
        {
            for (Path f : sources) {
                String cls = f.getFileName().toString().replace(".java", "");
                if (f.startsWith(GENERATED_SETTINGS)) {
                    cls = cls.substring(0, cls.length() - "Settings".length());
                }
                Matcher m = ident.matcher(stripComments(Files.readString(f)));
                Set<String> seen = new TreeSet<>();
                while (m.find()) {
                    if (functions.contains(m.group()) && seen.add(m.group())) {
                        calls++;
                        String owner = owner(m.group());
                        boolean ok = owner.equals(cls) || (owner.equals("RocksDB") && DATABASE.contains(cls))
                                || (cls.equals("NativeWriteBatch") && owner.equals("WriteBatch"))
                                || ((cls.equals("Transactions") || cls.equals("TransactionReads") || cls.equals("TransactionWrites") || cls.equals("TransactionEnds"))
                                        && owner.equals("Transaction"));
                        if (!ok) {
                            wrong.add(cls + " calls " + m.group() + " (" + owner + "'s)");
                        }
                    }
                }
            }
        }
        assertTrue(calls > 60, "found " + calls + " calls");
        assertEquals(List.of(), wrong);
    }

    @Test
    void internalKnowsNoApiTypeButTheException() throws IOException {
        Pattern apiType = Pattern.compile("\\bio\\.rocksffm\\.([A-Z]\\w*)");
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> files = Files.list(INTERNAL)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = apiType.matcher(Files.readString(f));
                while (m.find()) {
                    if (!m.group(1).equals("RocksDBException")) {
                        wrong.add(f.getFileName() + ": " + m.group());
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * No API class locks an object its caller owns or can reach (issue 31): no synchronized
     * methods (they lock {@code this}, which the caller holds), and every synchronized block locks
     * a private lock object (a field named {@code lock}, {@code ...Lock} or {@code LOCK}).
     * A caller may then synchronize on its own options, batches and databases without meeting
     * rocksffm's locks.
     */
    @Test
    void noApiClassLocksAnObjectItsCallerOwns() throws IOException {
        Pattern modifier = Pattern.compile("\\bsynchronized(?!\\s*\\()");
        Pattern block = Pattern.compile("\\bsynchronized\\s*\\(([^)]*)\\)");
        List<String> wrong = new ArrayList<>();
        int blocks = 0;
        try (Stream<Path> files = Files.list(API)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code = stripComments(Files.readString(f));
                Matcher m = modifier.matcher(code);
                while (m.find()) {
                    wrong.add(f.getFileName() + ": synchronized method at offset " + m.start());
                }
                Matcher b = block.matcher(code);
                while (b.find()) {
                    blocks++;
                    if (!b.group(1).trim().matches("(\\w+\\.)?(lock|\\w*Lock|LOCK)")) {
                        wrong.add(f.getFileName() + ": synchronized (" + b.group(1) + ")");
                    }
                }
            }
        }
        assertTrue(blocks > 0, "the scan found the synchronized blocks");
        assertEquals(List.of(), wrong);
    }

    /**
     * The call protocol is written once (issue 31): API classes enter and exit lifecycles only
     * through a call token ({@code Scratch.enter}/{@code enterFirst}, released by try-with-resources),
     * never by hand-written {@code enter()}/{@code exit()} pairs.
     */
    @Test
    void apiClassesEnterLifecyclesOnlyThroughACallToken() throws IOException {
        Pattern byHand = Pattern.compile("\\.(enter|exit)\\(\\s*\\)");
        Pattern token = Pattern.compile("try \\(Scratch \\w+ = ");
        List<String> wrong = new ArrayList<>();
        int tokens = 0;
        try (Stream<Path> files = Files.list(API)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code = stripComments(Files.readString(f));
                Matcher m = byHand.matcher(code);
                while (m.find()) {
                    wrong.add(f.getFileName() + ": ." + m.group(1) + "() at offset " + m.start());
                }
                Matcher t = token.matcher(code);
                while (t.find()) {
                    tokens++;
                }
            }
        }
        assertTrue(tokens > 50, "the scan found the calls' tokens: " + tokens);
        assertEquals(List.of(), wrong);
    }

    /** The module exports only the API package: {@code internal} and the generated bindings stay inside. */
    @Test
    void onlyTheApiPackageIsExported() throws IOException {
        String module = stripComments(Files.readString(Path.of("src/main/java/module-info.java")));
        Matcher m = Pattern.compile("\\b(exports|opens)\\s+([\\w.]+)").matcher(module);
        List<String> exported = new ArrayList<>();
        while (m.find()) {
            exported.add(m.group(1) + " " + m.group(2));
        }
        assertEquals(List.of("exports io.rocksffm"), exported);
    }

    /**
     * The most API classes that {@code Database} refers to and that refer back to it, counted on
     * the compiled classes (a nested class counts as its top-level class). Most ties are the API's
     * own shape (the kinds it permits, the surfaces it implements, the handles, snapshots and
     * iterators that name their database); a new one is a helper that should take the narrow
     * thing it needs, or be a method of the database. Lower it when a tie goes.
     */
    private static final int DATABASE_TIES_CEILING = 14;

    /** A reference to an API class in a class file's constant pool ({@code io/rocksffm/Name}). */
    private static final Pattern API_CLASS = Pattern.compile("io/rocksffm/([A-Z][A-Za-z0-9_]*)");

    /**
     * The two-way ties around {@code Database} and the references against the layering (an
     * internal class naming an API class other than the exception), read from the class files'
     * constant pools, which hold every class a class uses (calls, fields, signatures, casts).
     * Prints both, so a run of this test alone is the measurement.
     */
    @Test
    void fewClassesAndTheDatabaseReferToEachOther() throws IOException, URISyntaxException {
        Path classes = Path.of(Database.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Set<String>> api = references(classes.resolve("io/rocksffm"));
        Map<String, Set<String>> internal = references(classes.resolve("io/rocksffm/internal"));
        Set<String> ties = new TreeSet<>();
        for (String c : api.get("Database")) {
            if (!c.equals("Database") && api.getOrDefault(c, Set.of()).contains("Database")) {
                ties.add(c);
            }
        }
        List<String> againstLayers = new ArrayList<>();
        internal.forEach((c, refs) -> refs.stream().filter(r -> !r.equals("RocksDBException"))
                .forEach(r -> againstLayers.add("internal." + c + " -> " + r)));
        System.out.println("Database refers to " + (api.get("Database").size() - 1) + " API classes; "
                + ties.size() + " refer back: " + ties);
        System.out.println("references against the layering: " + againstLayers);
        assertTrue(ties.contains("RocksDB") && ties.contains("ColumnFamilyHandle"), "the scan sees the ties: " + ties);
        assertTrue(ties.size() <= DATABASE_TIES_CEILING, ties.size() + " classes tied both ways to Database (ceiling "
                + DATABASE_TIES_CEILING + "): " + ties);
        assertEquals(List.of(), againstLayers);
    }

    /** The API classes each top-level class of {@code dir} refers to (its nested classes' references included). */
    private static Map<String, Set<String>> references(Path dir) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                String top = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
                try (InputStream in = Files.newInputStream(f)) {
                    out.computeIfAbsent(top, k -> new TreeSet<>()).addAll(apiClassesIn(in));
                }
            }
        }
        return out;
    }

    /** The API classes named in a class file's constant pool (its UTF-8 entries: class names and descriptors). */
    private static Set<String> apiClassesIn(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(classFile));
        in.readInt(); // magic
        in.readInt(); // minor and major version
        int count = in.readUnsignedShort();
        Set<String> out = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> { // Utf8
                    Matcher m = API_CLASS.matcher(in.readUTF());
                    while (m.find()) {
                        out.add(m.group(1));
                    }
                }
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // Class, String, MethodType, Module, Package
                case 15 -> in.skipNBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // numbers, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> { // Long, Double: two entries
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return out;
    }
}
