package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Map;

/**
 * The one place for the older C signatures of functions whose signature changed in RocksDB and
 * whose older shape rocksffm still calls on older engines.
 *
 * <p>The generated bindings follow one header (RocksDB {@value Capabilities#HEADER_VERSION}'s);
 * {@link Capabilities#SIGNATURE_CHANGED} lists the functions whose signature there differs from
 * an older supported engine's. Most of them are simply refused on the older engines. The ones
 * below are needed there, so this class declares their older prototype ({@link #PROTOTYPES},
 * exactly as the older header writes it) and the {@link FunctionDescriptor} that calls it. A
 * test ({@code OlderShapesTest}) checks each prototype against the older headers it can find
 * (Debian's 7.8.3 header; the 10.x bindings in the project's history) and each descriptor
 * against its prototype.
 *
 * <p>Each shape is used only where {@link Capabilities#callable} says the bindings' own
 * signature is not the engine's: calling through the wrong one is undefined behaviour.
 */
public final class OlderShapes {
    private OlderShapes() {}

    /** {@code rocksdb_slicetransform_create} before RocksDB 11.0: it also took {@code in_range}. */
    public static final String SLICETRANSFORM_CREATE = "rocksdb_slicetransform_create";

    /** {@code rocksdb_enable_file_deletions} before RocksDB 9.0: it also took {@code force}. */
    public static final String ENABLE_FILE_DELETIONS = "rocksdb_enable_file_deletions";

    /**
     * The older prototypes, as the older headers declare them: function name to declaration
     * (without {@code extern ROCKSDB_LIBRARY_API}).
     */
    public static final Map<String, String> PROTOTYPES = Map.of(
            SLICETRANSFORM_CREATE,
            "rocksdb_slicetransform_t* rocksdb_slicetransform_create(void* state, void (*destructor)(void*),"
                    + " char* (*transform)(void*, const char* key, size_t length, size_t* dst_length),"
                    + " unsigned char (*in_domain)(void*, const char* key, size_t length),"
                    + " unsigned char (*in_range)(void*, const char* key, size_t length),"
                    + " const char* (*name)(void*))",
            ENABLE_FILE_DELETIONS,
            "void rocksdb_enable_file_deletions(rocksdb_t* db, unsigned char force, char** errptr)");

    /** The {@code in_range} callback of the older {@code rocksdb_slicetransform_create}. */
    public static final FunctionDescriptor SLICETRANSFORM_IN_RANGE = FunctionDescriptor.of(JAVA_BYTE, ADDRESS,
            ADDRESS, JAVA_LONG);

    /** The older descriptors, by function name: what {@link #PROTOTYPES} declares, as the JDK calls it. */
    public static final Map<String, FunctionDescriptor> DESCRIPTORS = Map.of(
            SLICETRANSFORM_CREATE,
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
            ENABLE_FILE_DELETIONS,
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_BYTE, ADDRESS));

    /** Linked on first use: only an engine older than 11.0 with a Java prefix extractor needs it. */
    private static final class SliceTransformCreate {
        static final MethodHandle HANDLE = link(SLICETRANSFORM_CREATE);
    }

    /** Linked on first use: only an engine older than 9.0 that re-enables file deletions needs it. */
    private static final class EnableFileDeletions {
        static final MethodHandle HANDLE = link(ENABLE_FILE_DELETIONS);
    }

    private static MethodHandle link(String function) {
        NativeLibrary.load();
        MemorySegment address = SymbolLookup.loaderLookup().find(function)
                .orElseThrow(() -> new UnsupportedOperationException(function + " is not exported by the engine"));
        return Linker.nativeLinker().downcallHandle(address, DESCRIPTORS.get(function));
    }

    /**
     * Calls {@code rocksdb_slicetransform_create} with its signature before RocksDB 11.0.
     *
     * @return the new transform (NULL on failure)
     */
    public static MemorySegment slicetransformCreate(MemorySegment state, MemorySegment destructor,
            MemorySegment transform, MemorySegment inDomain, MemorySegment inRange, MemorySegment name) {
        try {
            return (MemorySegment) SliceTransformCreate.HANDLE.invokeExact(state, destructor, transform, inDomain,
                    inRange, name);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Calls {@code rocksdb_enable_file_deletions} with its signature before RocksDB 9.0, with
     * {@code force} false (one disable undone, as 9.0 and later count them).
     */
    public static void enableFileDeletions(MemorySegment db, MemorySegment errptr) {
        try {
            EnableFileDeletions.HANDLE.invokeExact(db, (byte) 0, errptr);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
