package io.rocksffm.ycsb;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Runs a command while holding the machine-wide benchmark lock ({@code $java.io.tmpdir/jmh.lock},
 * the file JMH locks for the length of a run), after waiting for it: a YCSB run then never
 * measures at the same time as a JMH run of this or another checkout.
 * {@code Locked command [args...]}; exits with the command's status.
 */
public final class Locked {
    private Locked() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 0) {
            System.err.println("usage: Locked command [args...]");
            System.exit(2);
        }
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            System.exit(new ProcessBuilder(args).inheritIO().start().waitFor());
        }
    }
}
