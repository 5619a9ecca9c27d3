package io.rocksffm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.BitSet;

/**
 * RocksDB's write-batch byte layout ({@code WriteBatch::rep_}, see {@code db/write_batch.cc}):
 * a 12-byte header (sequence number, fixed64 little-endian; record count, fixed32
 * little-endian), then one record per operation: a one-byte tag ({@code ValueType} in
 * {@code db/dbformat.h}), a varint32 column-family id for the column-family tags, and
 * varint32-length-prefixed key and (for put, merge, delete-range) value. A log-data record is
 * the tag and one varint32-length-prefixed blob; like a no-op it is not counted.
 */
public final class BatchFormat {
    private BatchFormat() {}

    /** Header size: sequence (8) + count (4). */
    public static final int HEADER = 12;
    /** Offset of the count in the header. */
    public static final int COUNT_OFFSET = 8;
    /** Largest key or value a record can carry (varint32 length). */
    public static final long MAX_SLICE = 0xFFFF_FFFFL;

    /** fixed32 little-endian, unaligned. */
    public static final ValueLayout.OfInt U32_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    // Tags: default-family tag, and the column-family tag (followed by a varint32 family id).
    public static final byte DELETION = 0x0;
    public static final byte VALUE = 0x1;
    public static final byte MERGE = 0x2;
    /** A blob for the write-ahead log only: not an operation, not counted, applied to no family. */
    public static final byte LOG_DATA = 0x3;
    public static final byte CF_DELETION = 0x4;
    public static final byte CF_VALUE = 0x5;
    public static final byte CF_MERGE = 0x6;
    public static final byte SINGLE_DELETION = 0x7;
    public static final byte CF_SINGLE_DELETION = 0x8;
    public static final byte NOOP = 0xD;
    public static final byte CF_RANGE_DELETION = 0xE;
    public static final byte RANGE_DELETION = 0xF;

    /** The column-family form of a default-family tag. */
    public static byte familyTag(byte tag) {
        return switch (tag) {
            case DELETION -> CF_DELETION;
            case VALUE -> CF_VALUE;
            case MERGE -> CF_MERGE;
            case SINGLE_DELETION -> CF_SINGLE_DELETION;
            case RANGE_DELETION -> CF_RANGE_DELETION;
            default -> throw new IllegalArgumentException("no column-family form of tag " + tag);
        };
    }

    /** Compares two byte strings as RocksDB's default (bytewise, unsigned) comparator does. */
    public static int compareBytewise(MemorySegment a, MemorySegment b) {
        long i = a.mismatch(b);
        if (i < 0) {
            return 0;
        }
        if (i == a.byteSize() || i == b.byteSize()) {
            return Long.compare(a.byteSize(), b.byteSize());
        }
        return Integer.compare(a.get(ValueLayout.JAVA_BYTE, i) & 0xFF, b.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
    }

    /** Bytes a varint32 encoding of {@code v} (0 .. 2^32-1) takes. */
    public static int varintSize(long v) {
        int n = 1;
        while (v >= 0x80) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Writes {@code v} as a varint at {@code offset}; returns the offset after it. */
    public static long putVarint(MemorySegment s, long offset, long v) {
        while (v >= 0x80) {
            s.set(ValueLayout.JAVA_BYTE, offset++, (byte) (v | 0x80));
            v >>>= 7;
        }
        s.set(ValueLayout.JAVA_BYTE, offset++, (byte) v);
        return offset;
    }

    /**
     * What a validated batch holds: its record count, the non-default column-family ids its
     * records name, and the column-family ids (0 for the default) its merge records and its range
     * deletions name (null when it has none).
     */
    public record Summary(int count, BitSet families, BitSet mergeFamilies, BitSet rangeFamilies) {}

    /** What {@link #forEachRange} hands each range deletion to. */
    @FunctionalInterface
    public interface RangeVisitor {
        /** Visits the range deletion at {@code offset} of family {@code family} (0: default): {@code [begin, end)}. */
        void visit(long offset, int family, MemorySegment begin, MemorySegment end);
    }

    /**
     * Hands every range deletion of {@code data}, a batch {@link #validate} accepted (or one
     * rocksffm encoded), to {@code visitor}, in order.
     */
    public static void forEachRange(MemorySegment data, RangeVisitor visitor) {
        forEachEntry(data, (at, tag, family, first, second) -> {
            if (tag == RANGE_DELETION) {
                visitor.visit(at, family, first, second);
            }
        });
    }

    /**
     * The column families (0: default) the records of {@code data} name, a batch {@link #validate}
     * accepted (or one rocksffm encoded).
     */
    public static BitSet families(MemorySegment data) {
        BitSet out = new BitSet();
        forEachEntry(data, (at, tag, family, first, second) -> {
            if (tag != LOG_DATA) {
                out.set(family);
            }
        });
        return out;
    }

    /** What {@link #forEachEntry} hands every record to. */
    @FunctionalInterface
    public interface EntryVisitor {
        /**
         * Visits the record at {@code at}: its default-family tag ({@link #VALUE}, {@link #MERGE},
         * {@link #DELETION}, {@link #SINGLE_DELETION}, {@link #RANGE_DELETION} or
         * {@link #LOG_DATA}), family id (0: default or log data), first slice (key, range begin or
         * blob) and second slice (value, range end; null when the record has none).
         */
        void visit(long at, byte tag, int family, MemorySegment first, MemorySegment second);
    }

    /**
     * Hands every record of {@code data}, a batch {@link #validate} accepted (or one rocksffm
     * encoded), log data included and no-ops skipped, to {@code visitor}, in order; the slices
     * are views of {@code data}.
     */
    public static void forEachEntry(MemorySegment data, EntryVisitor visitor) {
        Reader r = new Reader(data, HEADER);
        while (r.offset < data.byteSize()) {
            long at = r.offset;
            byte tag = data.get(ValueLayout.JAVA_BYTE, r.offset++);
            if (tag == NOOP) {
                continue;
            }
            int family = 0;
            byte plain = tag;
            if (tag == CF_DELETION || tag == CF_SINGLE_DELETION || tag == CF_VALUE || tag == CF_MERGE
                    || tag == CF_RANGE_DELETION) {
                family = (int) r.varint(at);
                plain = switch (tag) {
                    case CF_DELETION -> DELETION;
                    case CF_SINGLE_DELETION -> SINGLE_DELETION;
                    case CF_VALUE -> VALUE;
                    case CF_MERGE -> MERGE;
                    default -> RANGE_DELETION;
                };
            }
            MemorySegment first = r.slice(at);
            MemorySegment second = plain == VALUE || plain == MERGE || plain == RANGE_DELETION ? r.slice(at) : null;
            visitor.visit(at, plain, family, first, second);
        }
    }

    /**
     * Checks that {@code data} is a well-formed batch of operations rocksffm can encode (the
     * record types above, log data included) and summarises it. (Range order depends on the comparator of the
     * family the batch is written to: it is checked then.)
     *
     * @throws IllegalArgumentException describing the first problem found
     */
    public static Summary validate(MemorySegment data) {
        long size = data.byteSize();
        if (size < HEADER) {
            throw new IllegalArgumentException("write batch is " + size + " bytes; the header alone is " + HEADER);
        }
        long declared = Integer.toUnsignedLong(data.get(U32_LE, COUNT_OFFSET));
        Reader r = new Reader(data, HEADER);
        BitSet families = new BitSet();
        BitSet mergeFamilies = null;
        BitSet rangeFamilies = null;
        long records = 0;
        while (r.offset < size) {
            long at = r.offset;
            byte tag = data.get(ValueLayout.JAVA_BYTE, r.offset++);
            if (tag == NOOP) {
                continue; // a no-op marker is not counted
            }
            if (tag == LOG_DATA) {
                r.slice(at); // a blob for the log: not counted, names no family
                continue;
            }
            boolean family = tag == CF_DELETION || tag == CF_SINGLE_DELETION || tag == CF_VALUE || tag == CF_MERGE
                    || tag == CF_RANGE_DELETION;
            boolean twoSlices = tag == VALUE || tag == MERGE || tag == RANGE_DELETION || tag == CF_VALUE
                    || tag == CF_MERGE || tag == CF_RANGE_DELETION;
            boolean oneSlice = tag == DELETION || tag == SINGLE_DELETION || tag == CF_DELETION || tag == CF_SINGLE_DELETION;
            if (!twoSlices && !oneSlice) {
                throw new IllegalArgumentException(
                        "write batch has unsupported record tag 0x" + Integer.toHexString(tag & 0xFF) + " at offset " + at);
            }
            int familyId = 0;
            if (family) {
                long id = r.varint(at);
                if (id > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("write batch record at offset " + at + " names column family " + id);
                }
                familyId = (int) id;
                families.set(familyId);
            }
            r.slice(at);
            if (twoSlices) {
                r.slice(at);
            }
            if (tag == RANGE_DELETION || tag == CF_RANGE_DELETION) {
                if (rangeFamilies == null) {
                    rangeFamilies = new BitSet();
                }
                rangeFamilies.set(familyId);
            }
            if (tag == MERGE || tag == CF_MERGE) {
                if (mergeFamilies == null) {
                    mergeFamilies = new BitSet();
                }
                mergeFamilies.set(familyId);
            }
            records++;
        }
        if (records != declared) {
            throw new IllegalArgumentException("write batch header counts " + declared + " records but holds " + records);
        }
        if (records > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("write batch holds too many records: " + records);
        }
        families.clear(0);
        return new Summary((int) records, families, mergeFamilies, rangeFamilies);
    }

    private static final class Reader {
        final MemorySegment s;
        long offset;

        Reader(MemorySegment s, long offset) {
            this.s = s;
            this.offset = offset;
        }

        long varint(long record) {
            long v = 0;
            for (int shift = 0; shift <= 28; shift += 7) {
                if (offset >= s.byteSize()) {
                    break;
                }
                int b = s.get(ValueLayout.JAVA_BYTE, offset++) & 0xFF;
                v |= (long) (b & 0x7F) << shift;
                if (b < 0x80) {
                    if (v > MAX_SLICE) {
                        break;
                    }
                    return v;
                }
            }
            throw new IllegalArgumentException("write batch has a bad varint in the record at offset " + record);
        }

        MemorySegment slice(long record) {
            long n = varint(record);
            if (n > s.byteSize() - offset) {
                throw new IllegalArgumentException("write batch record at offset " + record + " runs past the end");
            }
            MemorySegment bytes = s.asSlice(offset, n);
            offset += n;
            return bytes;
        }
    }
}
