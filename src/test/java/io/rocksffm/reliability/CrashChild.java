package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.io.PrintStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import io.rocksffm.RocksDBException;

/**
 * The writer that {@link CrashDurabilityTest} kills with SIGKILL. It opens the database, prints
 * {@code READY}, then writes forever; after a write returns (and, in mode {@code walflush}, after
 * the WAL flush that follows it) it prints {@code ACK <key>} for every key the write stored. A
 * line is printed in one {@code write(2)} so that a kill never leaves half an acknowledgement
 * that looks whole.
 *
 * <p>Before writing it checks that the database cannot be opened a second time through other
 * spellings of its path ({@code <path>/.}, {@code <parent>/./<name>}); the test gives it a
 * different spelling (a symbolic link, {@code sub/../db}) in every cycle.
 *
 * <p>Arguments: database path, mode ({@code sync}: every write with {@code sync=true};
 * {@code walflush}: default write options, then {@link RocksDB#flushWal(boolean) flushWal(true)}
 * after each group of writes), cycle number, seed.
 *
 * <p>Keys are {@code c<cycle>-<n>} for single puts and {@code c<cycle>-b<n>-<j>} for the
 * {@link #batchSize(long) batchSize(n)} records of batch n; values are {@link #value(String)}.
 */
public final class CrashChild {
    private CrashChild() {}

    /** The value stored under {@code key}: derived from the key alone, 1 to ~4 KiB long. */
    static byte[] value(String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        int len = 1 + Math.floorMod(key.hashCode() * 31 + 7, 4096);
        byte[] v = new byte[len];
        for (int i = 0; i < len; i++) {
            v[i] = (byte) (k[i % k.length] + i / k.length);
        }
        return v;
    }

    /** The number of records of batch {@code n}. */
    static int batchSize(long n) {
        return 2 + (int) (n % 5);
    }

    /**
     * Exits without printing {@code READY} (the test fails) if a second handle opens the open
     * database through {@code alias}, another spelling of its path.
     */
    private static void refuseAlias(Path alias) {
        try (Options o = new Options(); RocksDB second = RocksDB.open(alias, o)) { // no create-if-missing
            System.err.println("a second handle opened the database as " + alias);
            System.exit(3);
        } catch (RocksDBException expected) {
            if (!expected.getMessage().contains("lock hold by current process")) { // as for the same spelling
                System.err.println("opening " + alias + ": " + expected.getMessage());
                System.exit(4);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        boolean sync = args[1].equals("sync");
        int cycle = Integer.parseInt(args[2]);
        Random random = new Random(Long.parseLong(args[3]));
        // unbuffered, one write(2) per println
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        out.print("OPENING\n");
        out.flush();
        long deadline = System.nanoTime() + 60_000_000_000L; // never outlive a lost parent for long
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(256 << 10);
             RocksDB db = RocksDB.open(path, o);
             WriteOptions wo = new WriteOptions().setSync(sync);
             WriteBatch batch = new WriteBatch()) {
            refuseAlias(path.resolve("."));
            Path absolute = path.toAbsolutePath();
            refuseAlias(absolute.getParent().resolve(".").resolve(absolute.getFileName()));
            out.print("READY\n");
            out.flush();
            long n = 0;
            StringBuilder acks = new StringBuilder();
            while (System.nanoTime() < deadline) {
                acks.setLength(0);
                int writes = sync ? 1 : 1 + random.nextInt(8);
                for (int w = 0; w < writes; w++, n++) {
                    if (random.nextInt(4) == 0) {
                        batch.clear();
                        int size = batchSize(n);
                        for (int j = 0; j < size; j++) {
                            String key = "c" + cycle + "-b" + n + "-" + j;
                            batch.put(key.getBytes(StandardCharsets.UTF_8), value(key));
                            acks.append("ACK ").append(key).append('\n');
                        }
                        db.write(wo, batch);
                    } else {
                        String key = "c" + cycle + "-" + n;
                        db.put(wo, MemorySegment.ofArray(key.getBytes(StandardCharsets.UTF_8)),
                                MemorySegment.ofArray(value(key)));
                        acks.append("ACK ").append(key).append('\n');
                    }
                }
                if (!sync) {
                    db.flushWal(true);
                }
                out.print(acks);
                out.flush();
            }
        }
        out.print("TIMEOUT\n");
        out.flush();
    }
}
