package io.rocksffm.ycsb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Process timing of a fresh JVM's first point reads or writes through a {@link KeyValueStore}
 * (byte[] calls, as the YCSB bindings make them): {@code ColdStart ffm|jni get|put DIR KEYS
 * VALUE_BYTES}. For {@code get}, DIR must hold keys {@code 0..KEYS-1} (run {@code put} on it
 * first); {@code put} writes them. Prints one line: the milliseconds from the start of main to the
 * open store ({@code open_ms}), then the time of the first 1, 10, 100, 1k, 10k, 100k, ... calls from the first
 * call ({@code first_1000_ms=...}); JIT logs of such a run show what the calls run through before
 * they are compiled.
 */
public final class ColdStart {
    private ColdStart() {}

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        String lib = args[0];
        boolean get = switch (args[1]) {
            case "get" -> true;
            case "put" -> false;
            default -> throw new IllegalArgumentException("get or put: " + args[1]);
        };
        Path dir = Path.of(args[2]);
        int keys = Integer.parseInt(args[3]);
        byte[] value = new byte[Integer.parseInt(args[4])];
        Arrays.fill(value, (byte) 'v');
        StringBuilder out = new StringBuilder(lib + " " + args[1]);
        try (KeyValueStore store = lib.equals("ffm") ? new FfmStore(dir) : new JniStore(dir)) {
            long opened = System.nanoTime();
            out.append(String.format(" open_ms=%.1f", (opened - t0) / 1e6));
            byte[] key = new byte[16];
            long found = 0;
            long next = 1;
            long start = System.nanoTime();
            for (int i = 0; i < keys; i++) {
                fillKey(key, i);
                if (get) {
                    if (store.get(key) != null) found++;
                } else {
                    store.put(key, value);
                }
                if (i + 1 == next) {
                    out.append(String.format(" first_%d_ms=%.1f", next, (System.nanoTime() - start) / 1e6));
                    next *= 10;
                }
            }
            if (get && found != keys) throw new IllegalStateException(found + " of " + keys + " keys found");
        }
        System.out.println(out);
    }

    /** Key i: the decimal counter left-padded with '0' to the key's length. */
    static void fillKey(byte[] key, int i) {
        byte[] digits = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        Arrays.fill(key, 0, key.length - digits.length, (byte) '0');
        System.arraycopy(digits, 0, key, key.length - digits.length, digits.length);
    }
}
