package io.rocksffm.reliability;

import io.rocksffm.Options;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.WriteOptions;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The transactional writer {@link TransactionCrashTest} kills with SIGKILL. Opens a
 * {@link TransactionDB}, prints {@code READY}, then forever runs transactions of
 * {@link #KEYS_PER_TX} keys {@code c<cycle>-<kind><n>-<j>} (values from {@link CrashChild#value}):
 * kind {@code t} committed with {@code sync=true}, then {@code COMMIT t<n>} printed; kind {@code r}
 * rolled back ({@code ROLLBACK r<n>}); kind {@code q} named, prepared, then a put of a fourth
 * key tried (it must be refused: the child exits with status 3 if it is accepted), then committed
 * with {@code sync=true} ({@code COMMIT q<n>}); kind {@code p} named {@code c<cycle>-p<n>} and prepared
 * (sync), then {@code PREPARED c<cycle>-p<n>}, left prepared; kind {@code u} written and left
 * uncommitted. Each line goes out in one {@code write(2)}.
 *
 * <p>Arguments: database path, cycle number, seed.
 */
public final class TransactionCrashChild {
    static final int KEYS_PER_TX = 3;

    private TransactionCrashChild() {}

    static String key(int cycle, String kind, long n, int j) {
        return "c" + cycle + "-" + kind + n + "-" + j;
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int cycle = Integer.parseInt(args[1]);
        Random random = new Random(Long.parseLong(args[2]));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + 60_000_000_000L;
        List<Transaction> leftOpen = new ArrayList<>();
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(256 << 10);
             TransactionDBOptions to = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(path, o, to);
             WriteOptions sync = new WriteOptions().setSync(true)) {
            out.print("READY\n");
            out.flush();
            for (long n = 0; System.nanoTime() < deadline; n++) {
                int r = random.nextInt(10);
                String kind = r < 5 ? "t" : r < 6 ? "q" : r < 8 ? "r" : r < 9 ? "p" : "u";
                if ((kind.equals("p") || kind.equals("u")) && leftOpen.size() >= 8) {
                    kind = "t";
                }
                Transaction tx = db.beginTransaction(sync);
                for (int j = 0; j < KEYS_PER_TX; j++) {
                    String key = key(cycle, kind, n, j);
                    tx.put(key.getBytes(StandardCharsets.UTF_8), CrashChild.value(key));
                }
                switch (kind) {
                    case "t" -> {
                        tx.commit();
                        tx.close();
                        out.print("COMMIT t" + n + "\n");
                    }
                    case "q" -> {
                        tx.setName("c" + cycle + "-q" + n);
                        tx.prepare();
                        String late = key(cycle, kind, n, KEYS_PER_TX);
                        try {
                            tx.put(late.getBytes(StandardCharsets.UTF_8), CrashChild.value(late));
                            System.err.println("a put after prepare() was accepted");
                            System.exit(3); // the test fails: the child exits on its own
                        } catch (IllegalStateException expected) {
                            // what RocksDB would not log with the prepared transaction is refused
                        }
                        tx.commit();
                        tx.close();
                        out.print("COMMIT q" + n + "\n");
                    }
                    case "r" -> {
                        tx.rollback();
                        tx.close();
                        out.print("ROLLBACK r" + n + "\n");
                    }
                    case "p" -> {
                        tx.setName("c" + cycle + "-p" + n);
                        tx.prepare();
                        leftOpen.add(tx);
                        out.print("PREPARED c" + cycle + "-p" + n + "\n");
                    }
                    default -> leftOpen.add(tx);
                }
                out.flush();
            }
        }
        out.print("TIMEOUT\n");
        out.flush();
    }
}
