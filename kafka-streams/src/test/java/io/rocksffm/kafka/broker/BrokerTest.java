package io.rocksffm.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool$;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Exactly-once on rocksffm's stores against a real broker: a single-node Kafka 4.4.0 broker
 * (KRaft, formatted with Kafka's {@code StorageTool} and run as {@code KafkaRaftServer} in this
 * JVM, listening on 127.0.0.1 only), and {@link CountingApp} in child JVMs: killed with SIGKILL
 * part-way (twice), restarted on the same and on a wiped state directory, joined by a second
 * instance (a rebalance) that is then killed too (another). After all the input is processed, the
 * last count of every key read with a {@code read_committed} consumer is exactly the number of
 * records of that key. Once in each of Kafka 4.4's modes ({@code enable.transactional.statestores}
 * false and true). The children print their stores' uncommitted bytes each second; the test
 * prints them and the SST files of the stores.
 *
 * <p>Takes a few minutes: runs with {@code -Drocksffm.kafka.broker=true}.
 */
@EnabledIfSystemProperty(named = "rocksffm.kafka.broker", matches = "true")
class BrokerTest {
    private static final int KEYS = 20_000;
    private static final int BATCH = 4_000;
    private static final Duration DRAIN = Duration.ofSeconds(120);

    @TempDir
    static Path dir;

    private static KafkaRaftServer broker;
    private static String bootstrap;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @BeforeAll
    static void startBroker() throws IOException {
        int port = freePort();
        int controller = freePort();
        bootstrap = "127.0.0.1:" + port;
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controller);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", dir.resolve("broker").toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("num.partitions", "2");
        Path config = dir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config)) {
            props.store(out, "broker test");
        }
        int formatted = StorageTool$.MODULE$.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c",
            config.toString()}, new PrintStream(System.out, true, StandardCharsets.UTF_8));
        assertEquals(0, formatted, "storage format");
        broker = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        broker.startup();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            List<NewTopic> topics = new ArrayList<>();
            for (String mode : List.of("direct", "transactional")) {
                topics.add(new NewTopic("input-" + mode, 2, (short) 1));
                topics.add(new NewTopic("counts-" + mode, 2, (short) 1));
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("creating the topics", e);
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.shutdown();
            broker.awaitShutdown();
        }
    }

    /** A running {@link CountingApp}: its output lines collected, its last buffered bytes per task. */
    private static final class App {
        final Process process;
        final String name;
        final List<String> bufferedSamples = new CopyOnWriteArrayList<>();
        final Map<String, Long> buffered = new ConcurrentHashMap<>();
        volatile boolean running;
        /** Whether Kafka found this application's store left open by the kill (and wiped and restored it). */
        volatile boolean foundCorrupt;

        App(String name, Path stateDir, boolean transactional) throws IOException {
            this.name = name;
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", CountingApp.class.getName(), bootstrap,
                    stateDir.toString(), String.valueOf(transactional), "300", transactional ? "transactional" : "direct"));
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.contains("was not closed cleanly") || line.contains("are corrupted")) {
                            foundCorrupt = true;
                        }
                        if (line.startsWith("buffered ")) {
                            String[] parts = line.split(" ");
                            buffered.put(parts[1], Long.parseLong(parts[2]));
                        } else if (line.startsWith("state ")) {
                            running = line.equals("state RUNNING");
                            System.out.println(name + ": " + line);
                        }
                    }
                } catch (IOException e) {
                    // the child is gone
                }
            });
        }

        /** Waits until the application runs (after its rebalance and restore), a minute at most. */
        void awaitRunning() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!running && System.nanoTime() < deadline && process.isAlive()) {
                Thread.sleep(200);
            }
            assertTrue(running, name + " did not reach RUNNING");
        }

        /** Notes the uncommitted bytes of its tasks now (their sum). */
        void sample() {
            bufferedSamples.add(String.valueOf(buffered.values().stream().mapToLong(Long::longValue).sum()));
        }

        void kill() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL
            process.waitFor(30, TimeUnit.SECONDS);
            System.out.println(name + " killed; its stores' uncommitted bytes each few seconds: " + bufferedSamples);
        }

        void stop() throws InterruptedException {
            process.destroy(); // SIGTERM: the shutdown hook closes Kafka Streams
            if (!process.waitFor(40, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            System.out.println(name + " stopped; its stores' uncommitted bytes each few seconds: " + bufferedSamples);
        }
    }

    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer());
    }

    /** Produces a batch of records over {@link #KEYS} keys and counts them in {@code expected}. */
    private static void produce(KafkaProducer<String, String> producer, String topic, Map<String, Long> expected,
                                int round) throws Exception {
        for (int i = 0; i < BATCH; i++) {
            String key = "key-" + ((i * 7919 + round * 4001) % KEYS);
            producer.send(new ProducerRecord<>(topic, key, "r" + round + "-" + i));
            expected.merge(key, 1L, Long::sum);
        }
        producer.flush();
    }

    private static long sstFiles(Path stateDir) throws IOException {
        if (!Files.exists(stateDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(stateDir)) {
            return files.filter(f -> f.toString().endsWith(".sst") && f.toString().contains(File.separator + "rocksffm"
                    + File.separator)).count();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Once the apps run, produces a batch every second for {@code seconds}, sampling the apps'
     * buffered bytes.
     */
    private static int run(KafkaProducer<String, String> producer, String topic, Map<String, Long> expected, int round,
                           int seconds, App... apps) throws Exception {
        for (App app : apps) {
            app.awaitRunning();
        }
        for (int s = 0; s < seconds; s++) {
            produce(producer, topic, expected, round++);
            Thread.sleep(1_000);
            for (App app : apps) {
                app.sample();
            }
        }
        return round;
    }

    /** Reads {@code counts} with read_committed until every key's last count is the expected one, or the deadline. */
    private static Map<String, Long> lastCounts(String topic, Map<String, Long> expected, String group) {
        Map<String, Long> last = new TreeMap<>();
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long deadline = System.nanoTime() + DRAIN.toNanos();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new LongDeserializer())) {
            consumer.subscribe(List.of(topic));
            while (System.nanoTime() < deadline && !last.equals(new TreeMap<>(expected))) {
                for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(500))) {
                    last.put(r.key(), r.value());
                }
            }
        }
        return last;
    }

    private void scenario(boolean transactional) throws Exception {
        String mode = transactional ? "transactional" : "direct";
        Path stateA = dir.resolve(mode + "-a");
        Path stateB = dir.resolve(mode + "-b");
        Map<String, Long> expected = new TreeMap<>();
        long start = System.nanoTime();
        String input = "input-" + mode;
        try (KafkaProducer<String, String> producer = producer()) {
            int round = 0;
            App a = new App(mode + " A", stateA, transactional);
            round = run(producer, input, expected, round, 10, a);
            System.out.println(mode + " A: SST files at the first kill: " + sstFiles(stateA));
            a.kill();
            a = new App(mode + " A, same state directory", stateA, transactional);
            round = run(producer, input, expected, round, 6, a);
            // Without transactional stores the killed store wrote past its offsets: Kafka must wipe it.
            assertEquals(!transactional, a.foundCorrupt, "the restart found the store left open");
            a.kill();
            deleteTree(stateA);
            a = new App(mode + " A, wiped state directory", stateA, transactional);
            round = run(producer, input, expected, round, 6, a);
            App b = new App(mode + " B", stateB, transactional);
            round = run(producer, input, expected, round, 8, a, b);
            b.kill();
            round = run(producer, input, expected, round, 4, a);
            Map<String, Long> last = lastCounts("counts-" + mode, expected, "verify-" + mode);
            System.out.printf("%s: SST files of A %d, B %d; %d records over %d keys, %d rounds; %.0f s%n", mode,
                    sstFiles(stateA), sstFiles(stateB), expected.values().stream().mapToLong(Long::longValue).sum(),
                    expected.size(), round, (System.nanoTime() - start) / 1e9);
            a.stop();
            assertEquals(expected, last, mode);
        }
    }

    @Test
    void exactCountsThroughKillsRestartsAndRebalancesWithoutTransactionalStores() throws Exception {
        scenario(false);
    }

    @Test
    void exactCountsThroughKillsRestartsAndRebalancesWithTransactionalStores() throws Exception {
        scenario(true);
    }
}
