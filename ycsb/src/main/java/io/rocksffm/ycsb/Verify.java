package io.rocksffm.ycsb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Full-scan check of a YCSB database after a run, through the library that wrote it:
 * {@code Verify ffm|jni DIR EXPECTED_RECORDS [FIELD_COUNT [FIELD_LENGTH]]}. Every key must be a
 * YCSB key ({@code user...}), every value must decode into exactly fields {@code field0 ..
 * field<n-1>} of FIELD_LENGTH bytes each, and the number of records must be EXPECTED_RECORDS.
 * Prints {@code records=N errors=E} and exits 1 unless both hold.
 */
public final class Verify {
    private Verify() {}

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: Verify ffm|jni DIR EXPECTED_RECORDS [FIELD_COUNT [FIELD_LENGTH]]");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        long expected = Long.parseLong(args[2]);
        int fieldCount = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        int fieldLength = args.length > 4 ? Integer.parseInt(args[4]) : 100;
        long[] count = {0};
        long[] errors = {0};
        try (KeyValueStore store = switch (args[0]) {
            case "ffm" -> new FfmStore(dir);
            case "jni" -> new JniStore(dir);
            default -> throw new IllegalArgumentException("ffm or jni: " + args[0]);
        }) {
            store.scan(new byte[0], (k, v) -> {
                count[0]++;
                String key = new String(k, StandardCharsets.UTF_8);
                String problem = null;
                if (!key.startsWith("user")) {
                    problem = "not a YCSB key";
                } else {
                    try {
                        Map<String, byte[]> fields = ValueCodec.decodeRaw(v);
                        if (fields.size() != fieldCount) problem = fields.size() + " fields";
                        for (int i = 0; problem == null && i < fieldCount; i++) {
                            byte[] f = fields.get("field" + i);
                            if (f == null) problem = "no field" + i;
                            else if (f.length != fieldLength) problem = "field" + i + " has " + f.length + " bytes";
                        }
                    } catch (IllegalArgumentException e) {
                        problem = e.getMessage();
                    }
                }
                if (problem != null && errors[0]++ < 10) System.err.println("verify: " + key + ": " + problem);
                return true;
            });
        }
        if (count[0] != expected) {
            System.err.println("verify: " + count[0] + " records, expected " + expected);
            errors[0]++;
        }
        System.out.println("records=" + count[0] + " errors=" + errors[0]);
        System.exit(errors[0] == 0 ? 0 : 1);
    }
}
