package io.rocksffm.ycsb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * The one value encoding both bindings use: a record's fields serialized into one value, each as
 * {@code [u16 name length][name, UTF-8][i32 value length][value bytes]}, in the order given.
 * Ten 100-byte fields named {@code field0..field9} make a 1,120-byte value.
 */
final class ValueCodec {
    private ValueCodec() {}

    /** Serializes fields; each iterator is consumed. */
    static byte[] encode(Map<String, ByteIterator> fields) {
        Map<String, byte[]> raw = new LinkedHashMap<>();
        for (Map.Entry<String, ByteIterator> e : fields.entrySet()) {
            raw.put(e.getKey(), e.getValue().toArray());
        }
        return encodeRaw(raw);
    }

    static byte[] encodeRaw(Map<String, byte[]> fields) {
        int size = 0;
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            size += 2 + e.getKey().getBytes(StandardCharsets.UTF_8).length + 4 + e.getValue().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            out.putShort((short) name.length).put(name).putInt(e.getValue().length).put(e.getValue());
        }
        return out.array();
    }

    /** Every field of a value, in stored order; throws IllegalArgumentException if malformed. */
    static Map<String, byte[]> decodeRaw(byte[] value) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        ByteBuffer in = ByteBuffer.wrap(value);
        while (in.hasRemaining()) {
            if (in.remaining() < 2) throw new IllegalArgumentException("truncated name length");
            int nameLength = Short.toUnsignedInt(in.getShort());
            if (in.remaining() < nameLength + 4) throw new IllegalArgumentException("truncated name");
            byte[] name = new byte[nameLength];
            in.get(name);
            int length = in.getInt();
            if (length < 0 || in.remaining() < length) throw new IllegalArgumentException("truncated field value");
            byte[] bytes = new byte[length];
            in.get(bytes);
            if (fields.put(new String(name, StandardCharsets.UTF_8), bytes) != null) {
                throw new IllegalArgumentException("duplicate field");
            }
        }
        return fields;
    }

    /** Decodes the requested fields (all if {@code wanted} is null) into {@code result}. */
    static void decode(byte[] value, Set<String> wanted, Map<String, ByteIterator> result) {
        for (Map.Entry<String, byte[]> e : decodeRaw(value).entrySet()) {
            if (wanted == null || wanted.contains(e.getKey())) {
                result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
            }
        }
    }
}
