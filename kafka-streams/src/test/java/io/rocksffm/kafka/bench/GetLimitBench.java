package io.rocksffm.kafka.bench;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.internal.capi.RocksDBC;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.BufferedOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.Properties;
import java.util.List;

/**
 * The get phase of {@link StoreBench} alone, on four paths to the same data (issue 33's "physical
 * limit" measurement; not a test): rocksffm's {@code db.get(family, byte[])} on the rocksffm store's
 * own database, the rocksffm store's {@code get(Bytes)}, Kafka's RocksDB store's {@code get(Bytes)},
 * and rocksdbjni's {@code db.get(family, byte[])} on Kafka's store's own database. The stores are
 * filled exactly as StoreBench fills them (same keys, order, values, commits); each round runs the
 * same random gets on all four paths, interleaved in chunks of 1,000. With {@code -Dbench.dump=FILE}
 * the key order, the gets and the value are written to FILE for the C loop
 * ({@code kafka-streams/src/test/c/get_limit.c}), which replays the same writes and gets on the
 * same engine library with the same options. {@code -Dbench.phases} chooses the paths run together
 * (see {@link #PHASES}). Paths 4 and 5 are floors for a binding: one rocksdb_get_into_buffer_cf
 * downcall on the rocksffm store's database through jextract's handle (key copied into native
 * memory first), and the same call linked critical with the key passed from its heap array; path 6
 * is that call on Kafka's store's database (a rocksdb_t and a rocksdb_column_family_handle_t made
 * around rocksdbjni's native handles), for the engine work of the same data behind both Java paths.
 */
public final class GetLimitBench {
    private static final int KEYS = Integer.getInteger("bench.keys", 200_000);
    private static final int GETS = Integer.getInteger("bench.gets", 400_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);
    /**
     * The phases, each a list of paths (indexes into NAMES) run interleaved for ROUNDS rounds, e.g.
     * -Dbench.phases=1,2/0,3: the two stores, then the two bindings' direct gets. The default
     * phases pair a path on the rocksffm store's database with one on Kafka's, so that every chunk
     * follows a chunk on the other database (as in StoreBench; a chunk right after one on the same
     * database finds more of it in the CPU caches and runs ~10% faster).
     */
    private static final String PHASES = System.getProperty("bench.phases", "1,2/0,3/5,6");
    private static final String DUMP = System.getProperty("bench.dump");
    private static final int COMMIT_EVERY = 10_000;
    private static final TopicPartition CHANGELOG = new TopicPartition("bench-changelog", 0);
    private static final String[] NAMES = {"rocksffm db.get", "rocksffm store", "Kafka store", "rocksdbjni db.get",
        "raw downcall", "raw critical", "raw critical on Kafka's db"};
    private static final int PATHS = NAMES.length;

    private GetLimitBench() {
    }

    private static Bytes key(int i) {
        return Bytes.wrap(ByteBuffer.allocate(16).putLong(0x6b6579L).putLong(i).array());
    }

    private static KeyValueStore<Bytes, byte[]> open(boolean rocksffm, File dir) {
        KeyValueStore<Bytes, byte[]> store = rocksffm ? RocksffmStores.keyValueStore("bench").get()
                : Stores.persistentKeyValueStore("bench").get();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        store.init(new MockProcessorContext<>(props, new TaskId(0, 0), dir).getStateStoreContext(), store);
        return store;
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name + " in " + target.getClass());
    }

    private static Object innermost(Object store) {
        while (store instanceof WrappedStateStore<?, ?, ?> w) {
            store = w.wrapped();
        }
        return store;
    }

    public static void main(String[] args) throws Exception {
        System.out.printf("engine: rocksffm %s, rocksdbjni %s; %,d keys, %,d gets a round, %d rounds%n",
                RocksDB.engine().version(), org.rocksdb.RocksDB.rocksdbVersion(), KEYS, GETS, ROUNDS);
        File dir = Files.createTempDirectory("get-limit").toFile();
        KeyValueStore<Bytes, byte[]> ours = open(true, new File(dir, "ours"));
        KeyValueStore<Bytes, byte[]> kafka = open(false, new File(dir, "kafka"));
        try {
            Object oursInner = innermost(ours);
            RocksDB oursDb = (RocksDB) field(oursInner, "db");
            ColumnFamilyHandle oursData = (ColumnFamilyHandle) field(oursInner, "data");
            Object kafkaInner = innermost(kafka);
            org.rocksdb.RocksDB kafkaDb = (org.rocksdb.RocksDB) field(kafkaInner, "db");
            Object cfAccessor = field(kafkaInner, "cfAccessor");
            Method dataCf = Class.forName("org.apache.kafka.streams.state.internals.RocksDBStore$ColumnFamilyAccessor")
                    .getMethod("dataColumnFamily");
            dataCf.setAccessible(true);
            org.rocksdb.ColumnFamilyHandle kafkaData = (org.rocksdb.ColumnFamilyHandle) dataCf.invoke(cfAccessor);
            // The raw pointers of the rocksffm store's database, for the two floor loops.
            MemorySegment dbPtr = (MemorySegment) field(oursDb, "db");
            MemorySegment cfPtr = (MemorySegment) field(oursData, "ptr");
            ReadOptions rawOptions = new ReadOptions();
            MemorySegment roPtr = (MemorySegment) field(rawOptions, "ptr");
            Arena arena = Arena.ofConfined();
            MemorySegment keyBuf = arena.allocate(16);
            MemorySegment valBuf = arena.allocate(4096);
            MemorySegment lenOut = arena.allocate(8);
            MemorySegment foundOut = arena.allocate(1);
            MemorySegment errOut = arena.allocate(8);
            // rocksdb_t and rocksdb_column_family_handle_t around Kafka's store's DB* and
            // ColumnFamilyHandle* (the C API's structs hold the C++ pointer first; never destroyed).
            MemorySegment kafkaDbPtr = arena.allocate(16);
            kafkaDbPtr.set(ValueLayout.JAVA_LONG, 0, kafkaDb.getNativeHandle());
            MemorySegment kafkaCfPtr = arena.allocate(16);
            kafkaCfPtr.set(ValueLayout.JAVA_LONG, 0, kafkaData.getNativeHandle());
            // The same call linked critical: the key straight from its heap array, no copy into native memory.
            MethodHandle critical = Linker.nativeLinker().downcallHandle(RocksDBC.rocksdb_get_into_buffer_cf$address(),
                    RocksDBC.rocksdb_get_into_buffer_cf$descriptor(), Linker.Option.critical(true));

            int[] order = new int[KEYS];
            Arrays.setAll(order, i -> i);
            Random random = new Random(42);
            for (int i = KEYS - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            byte[] value = new byte[100];
            random.nextBytes(value);
            int chunk = 1_000;
            for (int from = 0; from < KEYS; from += chunk) {
                for (KeyValueStore<Bytes, byte[]> store : List.of(ours, kafka)) {
                    for (int i = from; i < Math.min(KEYS, from + chunk); i++) {
                        store.put(key(order[i]), value);
                        if ((i + 1) % COMMIT_EVERY == 0 || i == KEYS - 1) {
                            store.commit(Map.of(CHANGELOG, (long) i));
                        }
                    }
                }
            }
            int[] gets = new int[GETS];
            Arrays.setAll(gets, i -> random.nextInt(KEYS));
            if (DUMP != null) {
                try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(DUMP)))) {
                    out.writeInt(KEYS);
                    out.writeInt(GETS);
                    out.writeInt(COMMIT_EVERY);
                    for (int k : order) {
                        out.writeInt(k);
                    }
                    for (int g : gets) {
                        out.writeInt(g);
                    }
                    out.write(value);
                }
            }
            Thread.sleep(2_000); // let background flushes settle
            String[] props = {"rocksdb.num-entries-active-mem-table", "rocksdb.num-entries-imm-mem-tables",
                "rocksdb.total-sst-files-size", "rocksdb.estimate-num-keys"};
            for (String p : props) {
                System.out.printf("  %-40s rocksffm %,10d  kafka %,10d%n", p,
                        oursDb.getLongProperty(oursData, p).orElse(-1), kafkaDb.getLongProperty(kafkaData, p));
            }
            System.out.printf("  %-40s rocksffm %s  kafka %s%n", "rocksdb.num-files-at-level0",
                    oursDb.getProperty(oursData, "rocksdb.num-files-at-level0"),
                    kafkaDb.getProperty(kafkaData, "rocksdb.num-files-at-level0"));

            for (String phase : PHASES.split("/")) {
                int[] run = Arrays.stream(phase.split(",")).mapToInt(Integer::parseInt).toArray();
                System.out.printf("phase %s:%n", phase);
                double[][] rates = new double[ROUNDS + 1][PATHS];
                for (int round = 0; round <= ROUNDS; round++) { // round 0: warm-up
                    long[] nanos = new long[PATHS];
                    long[] found = new long[PATHS];
                    for (int from = 0; from < GETS; from += chunk) {
                        int to = Math.min(GETS, from + chunk);
                        for (int p = 0; p < run.length; p++) {
                            int path = run[p]; // strict alternation: every chunk follows one of another path
                            long start = System.nanoTime();
                            long n = 0;
                            switch (path) {
                                case 0 -> {
                                    for (int i = from; i < to; i++) {
                                        n += oursDb.get(oursData, key(gets[i]).get()).length;
                                    }
                                }
                                case 1 -> {
                                    for (int i = from; i < to; i++) {
                                        n += ours.get(key(gets[i])).length;
                                    }
                                }
                                case 2 -> {
                                    for (int i = from; i < to; i++) {
                                        n += kafka.get(key(gets[i])).length;
                                    }
                                }
                                case 3 -> {
                                    for (int i = from; i < to; i++) {
                                        n += kafkaDb.get(kafkaData, key(gets[i]).get()).length;
                                    }
                                }
                                case 4 -> {
                                    for (int i = from; i < to; i++) {
                                        byte[] k = key(gets[i]).get();
                                        MemorySegment.copy(k, 0, keyBuf, ValueLayout.JAVA_BYTE, 0, k.length);
                                        RocksDBC.rocksdb_get_into_buffer_cf(dbPtr, roPtr, cfPtr, keyBuf, k.length, valBuf,
                                                valBuf.byteSize(), lenOut, foundOut, errOut);
                                        byte[] v = new byte[(int) lenOut.get(ValueLayout.JAVA_LONG, 0)];
                                        MemorySegment.copy(valBuf, ValueLayout.JAVA_BYTE, 0, v, 0, v.length);
                                        n += v.length;
                                    }
                                }
                                default -> {
                                    MemorySegment d = path == 5 ? dbPtr : kafkaDbPtr;
                                    MemorySegment c = path == 5 ? cfPtr : kafkaCfPtr;
                                    for (int i = from; i < to; i++) {
                                        byte[] k = key(gets[i]).get();
                                        try {
                                            byte _ = (byte) critical.invokeExact(d, roPtr, c, MemorySegment.ofArray(k),
                                                    (long) k.length, valBuf, valBuf.byteSize(), lenOut, foundOut, errOut);
                                        } catch (Throwable t) {
                                            throw new AssertionError(t);
                                        }
                                        byte[] v = new byte[(int) lenOut.get(ValueLayout.JAVA_LONG, 0)];
                                        MemorySegment.copy(valBuf, ValueLayout.JAVA_BYTE, 0, v, 0, v.length);
                                        n += v.length;
                                    }
                                }
                            }
                            nanos[path] += System.nanoTime() - start;
                            found[path] += n;
                        }
                    }
                    for (int p = 0; p < PATHS; p++) {
                        if (nanos[p] > 0) {
                            if (found[p] != (long) GETS * value.length) {
                                throw new AssertionError(NAMES[p] + " found " + found[p]);
                            }
                            rates[round][p] = GETS / (nanos[p] / 1e9);
                        }
                    }
                    System.out.printf("round %d%s:", round, round == 0 ? " (warm-up)" : "");
                    for (int p : run) {
                        System.out.printf("  %s %,.0f", NAMES[p], rates[round][p]);
                    }
                    System.out.printf("  | ratio %.3fx%n", rates[round][run[0]] / rates[round][run[run.length - 1]]);
                }
                double[] best = new double[PATHS];
                for (int round = 1; round <= ROUNDS; round++) {
                    for (int p = 0; p < PATHS; p++) {
                        best[p] = Math.max(best[p], rates[round][p]);
                    }
                }
                System.out.printf("best:");
                for (int p : run) {
                    System.out.printf("  %s %,.0f", NAMES[p], best[p]);
                }
                System.out.printf("  | ratio %.3fx%n", best[run[0]] / best[run[run.length - 1]]);
            }
        } finally {
            ours.close();
            kafka.close();
            Utils.delete(dir);
        }
    }
}
