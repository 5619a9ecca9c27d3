package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The u64 timestamp encoding: RocksDB's EncodeU64Ts (fixed 8 bytes, little-endian), checked against ByteBuffer's. */
class TimestampsTest {
    @Test
    void u64IsLittleEndianFixed64AndRoundTrips() {
        Random rnd = new Random(8);
        for (int i = 0; i < 1000; i++) {
            long t = i < 3 ? new long[] {0, -1, Long.MIN_VALUE}[i] : rnd.nextLong();
            byte[] encoded = Timestamps.u64(t);
            assertArrayEquals(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(t).array(), encoded);
            assertEquals(t, Timestamps.u64(encoded));
            assertEquals(t, Timestamps.u64(MemorySegment.ofArray(encoded)));
        }
    }

    @Test
    void wrongSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Timestamps.u64(new byte[9]));
        assertThrows(IllegalArgumentException.class, () -> Timestamps.u64(MemorySegment.ofArray(new byte[0])));
        assertThrows(NullPointerException.class, () -> Timestamps.u64((byte[]) null));
    }

    /** The order bytewiseU64 gives timestamps is the unsigned order of the numbers, as RocksDB's built-in one. */
    @Test
    void bytewiseU64OrdersTimestampsAsUnsignedNumbers() {
        TimestampedComparator c = TimestampedComparator.bytewiseU64();
        Random rnd = new Random(9);
        for (int i = 0; i < 1000; i++) {
            long a = rnd.nextLong();
            long b = rnd.nextInt(4) == 0 ? a : rnd.nextLong();
            assertEquals(Integer.signum(Long.compareUnsigned(a, b)), Integer.signum(c.compareTimestamp(
                    MemorySegment.ofArray(Timestamps.u64(a)), MemorySegment.ofArray(Timestamps.u64(b)))));
        }
        assertEquals(8, c.timestampSize());
    }
}
