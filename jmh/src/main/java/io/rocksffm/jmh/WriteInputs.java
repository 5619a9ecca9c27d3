package io.rocksffm.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The inputs of the write benchmarks (single puts and batches), shared by their states: a fresh
 * database directory, round-robin keys, and one key and one value in each representation the
 * bindings take (array, direct buffer, native segment).
 */
abstract class WriteInputs {
    Bench.KeyFormat keys;
    Bench.KeyChooser chooser;
    Path dir;
    Arena arena;
    byte[] keyArray;
    byte[] valueArray;
    ByteBuffer keyDirect;
    ByteBuffer valueDirect;
    MemorySegment keySegment;
    MemorySegment valueSegment;

    void initInputs(int keySize, long keyCount, int valueSize, String dirName) {
        Bench.requireSameEngine();
        keys = new Bench.KeyFormat(keySize, keyCount);
        chooser = new Bench.KeyChooser(Bench.KeyChooser.ROUND_ROBIN, keyCount);
        dir = Bench.freshDir(dirName);
        arena = Arena.ofConfined();
        keyArray = keys.newKey(0);
        valueArray = Bench.value(valueSize, 1);
        keyDirect = ByteBuffer.allocateDirect(keySize);
        keys.init(keyDirect, 0);
        valueDirect = ByteBuffer.allocateDirect(valueSize).put(valueArray).clear();
        keySegment = arena.allocate(keySize);
        keys.init(keySegment, 0);
        valueSegment = arena.allocate(valueSize).copyFrom(MemorySegment.ofArray(valueArray));
    }

    void cleanup() {
        arena.close();
        Bench.deleteTree(dir);
    }
}
