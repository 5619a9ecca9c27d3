package io.rocksffm;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Full scans and models for round-trip tests: keys and values as ISO-8859-1 strings, whose
 * natural order is RocksDB's bytewise order.
 */
public final class Scans {
    private Scans() {}

    public static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    public static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Every entry of {@code family}, in order. */
    public static SortedMap<String, String> scan(RocksDB db, ColumnFamilyHandle family) {
        SortedMap<String, String> out = new TreeMap<>();
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(family, ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                String previous = out.put(latin1(it.keyBytes()), latin1(it.valueBytes()));
                if (previous != null) {
                    throw new AssertionError("key seen twice");
                }
            }
            it.status();
        }
        return out;
    }

    /** {@code n} random entries (random binary keys of 1-24 bytes, values of 0-200 bytes). */
    public static SortedMap<String, String> randomEntries(Random random, int n) {
        SortedMap<String, String> out = new TreeMap<>();
        while (out.size() < n) {
            byte[] k = new byte[1 + random.nextInt(24)];
            byte[] v = new byte[random.nextInt(201)];
            random.nextBytes(k);
            random.nextBytes(v);
            out.put(latin1(k), latin1(v));
        }
        return out;
    }

    /** Puts every entry of {@code entries} into {@code family}. */
    public static void putAll(RocksDB db, ColumnFamilyHandle family, Map<String, String> entries) {
        entries.forEach((k, v) -> db.put(family, latin1(k), latin1(v)));
    }
}
