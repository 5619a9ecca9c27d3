package io.rocksffm.jmh;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Runs a command while holding JMH's machine-wide lock ({@code $java.io.tmpdir/jmh.lock}, the file
 * JMH's runner locks for the length of a run), waiting for it first: scripts/bench.sh runs the C
 * loop through this, so no JMH run (of this or another checkout) measures at the same time as the
 * C loop, nor the C loop while a JMH run measures.
 *
 * <p>Usage: {@code JmhLock command [args...]}; exits with the command's exit status.
 */
public final class JmhLock {
    private JmhLock() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 0) {
            System.err.println("usage: JmhLock command [args...]");
            System.exit(2);
        }
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.lock()) {
            Process p = new ProcessBuilder(args).inheritIO().start();
            System.exit(p.waitFor());
        }
    }
}
