package io.rocksffm;

/** Block compression types, numbered as RocksDB's C API numbers them. */
public enum Compression {
    /** No compression. */
    NONE(0),
    /** Snappy. */
    SNAPPY(1),
    /** zlib. */
    ZLIB(2),
    /** bzip2. */
    BZIP2(3),
    /** LZ4. */
    LZ4(4),
    /** LZ4 high compression. */
    LZ4HC(5),
    /** Xpress (Windows only). */
    XPRESS(6),
    /** Zstandard. */
    ZSTD(7);

    final int id;

    Compression(int id) {
        this.id = id;
    }

    static Compression of(int id) {
        Compression c = orNull(id);
        if (c == null) {
            throw new IllegalArgumentException("unknown compression type " + id);
        }
        return c;
    }

    /** The type of {@code id}, or null for an id without one (RocksDB's "not set", {@code kDisableCompressionOption}). */
    static Compression orNull(int id) {
        for (Compression c : values()) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }
}
