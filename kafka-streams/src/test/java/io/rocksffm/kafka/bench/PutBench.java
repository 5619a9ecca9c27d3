package io.rocksffm.kafka.bench;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import io.rocksffm.WriteOptions;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.state.KeyValueStore;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Put only, non-transactional (Kafka's default): rocksffm's key-value store and Kafka's, open side
 * by side, puts interleaved in chunks of 1,000 (which store goes first alternates from chunk to
 * chunk); each round prints both rates and their ratio.
 * {@code -Dbench.only=ours|kafka} runs one store (for a profile). The stores open as in
 * {@link StoreBench} (non-transactional unless {@code -Dbench.transactional=true}).
 */
public final class PutBench {
    private static final int KEYS = Integer.getInteger("bench.keys", 200_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 7);
    private static final String ONLY = System.getProperty("bench.only", "");
    private static final TopicPartition CHANGELOG = new TopicPartition("bench-changelog", 0);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private PutBench() {
    }

    /** A put through one binding, no store: {@code -Dbench.raw=true} compares the bindings alone. */
    private interface RawPut extends AutoCloseable {
        void put(byte[] key, byte[] value) throws Exception;
    }

    private static RawPut rawOurs(File dir) {
        Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(dir.toPath(), options);
        WriteOptions write = new WriteOptions().setDisableWAL(true);
        ColumnFamilyHandle family = db.defaultColumnFamily();
        return new RawPut() {
            public void put(byte[] key, byte[] value) {
                db.put(family, write, key, value);
            }

            public void close() {
                write.close();
                db.close();
                options.close();
            }
        };
    }

    private static RawPut rawJni(File dir) throws Exception {
        org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
        org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, dir.getPath());
        org.rocksdb.WriteOptions write = new org.rocksdb.WriteOptions().setDisableWAL(true);
        return new RawPut() {
            public void put(byte[] key, byte[] value) throws Exception {
                db.put(write, key, value);
            }

            public void close() {
                write.close();
                db.close();
                options.close();
            }
        };
    }

    private static void raw(Bytes[] keys, byte[] value) throws Exception {
        double[] cpuRatios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            File dir = Files.createTempDirectory("put-bench-raw").toFile();
            new File(dir, "ours").mkdirs();
            new File(dir, "jni").mkdirs();
            List<RawPut> dbs = List.of(rawOurs(new File(dir, "ours")), rawJni(new File(dir, "jni")));
            long[] cpu = new long[2];
            for (int from = 0; from < KEYS; from += 1_000) {
                for (int k = 0; k < 2; k++) {
                    int s = first(from / 1_000, k, 2);
                    RawPut db = dbs.get(s);
                    long startCpu = THREADS.getCurrentThreadCpuTime();
                    for (int i = from; i < from + 1_000; i++) {
                        db.put(keys[i].get(), value);
                    }
                    cpu[s] += THREADS.getCurrentThreadCpuTime() - startCpu;
                }
            }
            for (RawPut db : dbs) {
                db.close();
            }
            Utils.delete(dir);
            cpuRatios[round] = (double) cpu[1] / cpu[0];
            System.out.printf("raw round %d: thread cpu rocksffm %.3fus rocksdbjni %.3fus ratio %.3f%n", round,
                    cpu[0] / 1e3 / KEYS, cpu[1] / 1e3 / KEYS, cpuRatios[round]);
        }
        Arrays.sort(cpuRatios);
        System.out.printf("raw thread cpu: median ratio %.3f (min %.3f max %.3f)%n", cpuRatios[ROUNDS / 2], cpuRatios[0], cpuRatios[ROUNDS - 1]);
    }

    /**
     * The {@code k}-th of {@code n} sides to run chunk {@code chunk}: the side that goes first
     * alternates from chunk to chunk, since the first pays for bringing the chunk's keys into the
     * CPU caches and the second finds them there.
     */
    static int first(int chunk, int k, int n) {
        return (chunk + k) % n;
    }

    public static void main(String[] args) throws Exception {
        Random random = new Random(42);
        int[] order = StoreBench.shuffled(KEYS, random);
        Bytes[] keys = new Bytes[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = StoreBench.key(order[i]);
        }
        byte[] value = new byte[100];
        random.nextBytes(value);
        if (Boolean.getBoolean("bench.raw")) {
            raw(keys, value);
            return;
        }
        double[] ratios = new double[ROUNDS];
        double[] cpuRatios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            File dir = Files.createTempDirectory("put-bench").toFile();
            List<KeyValueStore<Bytes, byte[]>> stores = switch (ONLY) {
                case "ours" -> List.of(StoreBench.open(true, new File(dir, "ours")));
                case "kafka" -> List.of(StoreBench.open(false, new File(dir, "kafka")));
                default -> List.of(StoreBench.open(true, new File(dir, "ours")), StoreBench.open(false, new File(dir, "kafka")));
            };
            long[] nanos = new long[stores.size()];
            long[] cpu = new long[stores.size()];
            int chunk = 1_000;
            for (int from = 0; from < KEYS; from += chunk) {
                for (int k = 0; k < stores.size(); k++) {
                    int s = first(from / chunk, k, stores.size());
                    KeyValueStore<Bytes, byte[]> store = stores.get(s);
                    long startCpu = THREADS.getCurrentThreadCpuTime();
                    long start = System.nanoTime();
                    for (int i = from; i < from + chunk; i++) {
                        store.put(keys[i], value);
                    }
                    nanos[s] += System.nanoTime() - start;
                    cpu[s] += THREADS.getCurrentThreadCpuTime() - startCpu;
                }
            }
            for (KeyValueStore<Bytes, byte[]> s : stores) {
                s.commit(Map.of(CHANGELOG, (long) KEYS));
                s.close();
            }
            Utils.delete(dir);
            if (stores.size() == 2) {
                ratios[round] = (double) nanos[1] / nanos[0];
                cpuRatios[round] = (double) cpu[1] / cpu[0];
                System.out.printf("round %d: wall ours %.0f/s kafka %.0f/s ratio %.3f; thread cpu ours %.2fus kafka %.2fus ratio %.3f%n", round,
                        KEYS / (nanos[0] / 1e9), KEYS / (nanos[1] / 1e9), ratios[round],
                        cpu[0] / 1e3 / KEYS, cpu[1] / 1e3 / KEYS, cpuRatios[round]);
            } else {
                System.out.printf("round %d: %s %.0f/s%n", round, ONLY, KEYS / (nanos[0] / 1e9));
            }
        }
        if (!ONLY.isEmpty()) {
            return;
        }
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        System.out.printf("wall: median ratio %.3f (min %.3f max %.3f)%n", sorted[ROUNDS / 2], sorted[0], sorted[ROUNDS - 1]);
        sorted = cpuRatios.clone();
        Arrays.sort(sorted);
        System.out.printf("thread cpu: median ratio %.3f (min %.3f max %.3f)%n", sorted[ROUNDS / 2], sorted[0], sorted[ROUNDS - 1]);
    }
}
