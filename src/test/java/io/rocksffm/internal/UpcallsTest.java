package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

/** The stub plumbing: descriptors with pointers as numbers, views, failures caught at the stub. */
class UpcallsTest {
    @Test
    void addressesAsLongsReplacesEveryPointerAndNothingElse() {
        FunctionDescriptor d = FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_BYTE), ValueLayout.JAVA_BYTE);
        assertEquals(FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_BYTE), Upcalls.addressesAsLongs(d));
        assertEquals(FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
                Upcalls.addressesAsLongs(FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT)));
    }

    @Test
    void aViewIsReadOnlyAndExactlyItsBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocateFrom("hello, world");
            MemorySegment v = Upcalls.view(m.address() + 7, 5);
            assertTrue(v.isReadOnly());
            assertEquals(5, v.byteSize());
            assertEquals(m.address() + 7, v.address());
            assertEquals("world", new String(v.toArray(ValueLayout.JAVA_BYTE)));
            // the exception's type differs between JDK releases (UnsupportedOperationException, IllegalArgumentException)
            assertThrows(RuntimeException.class, () -> v.set(ValueLayout.JAVA_BYTE, 0, (byte) 'W'));
            assertEquals('w', (char) m.get(ValueLayout.JAVA_BYTE, 7));
            assertThrows(IndexOutOfBoundsException.class, () -> v.get(ValueLayout.JAVA_BYTE, 5));
            assertEquals(0, Upcalls.view(m.address(), 0).byteSize());
        }
    }

    static int calls;

    private static int target(long state, long value) {
        calls++;
        if (value < 0) {
            throw new IllegalArgumentException("negative " + value);
        }
        return (int) value * 2;
    }

    /** A stub whose state arrives as a number records a failure against that state, and returns the fallback. */
    @Test
    void aStubWithANumericStateCatchesAndRecords() throws Throwable {
        Upcalls.Entry entry = Upcalls.register(new Object(), "test.numeric", null);
        long state = entry.state().address();
        try {
            FunctionDescriptor d = Upcalls.addressesAsLongs(FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG));
            MemorySegment stub = Upcalls.stub(MethodHandles.lookup(), UpcallsTest.class, "target", d, -7);
            MethodHandle call = Linker.nativeLinker().downcallHandle(stub, d);
            long failures = Upcalls.failureCount();
            assertEquals(42, (int) call.invokeExact(state, 21L));
            assertEquals(-7, (int) call.invokeExact(state, -1L));
            assertTrue(Upcalls.failureCount() > failures);
            assertInstanceOf(IllegalArgumentException.class, entry.lastFailure());
            assertSame(entry, Upcalls.entry(state));
            assertEquals(2, calls);
        } finally {
            Upcalls.release(state);
        }
        assertTrue(entry.isReleased());
        assertThrows(IllegalStateException.class, () -> Upcalls.entry(state));
    }
}
