/**
 * rocksffm: RocksDB for Java 22+ through the Foreign Function &amp; Memory API, without JNI.
 *
 * <p>Only {@code io.rocksffm} is exported. {@code io.rocksffm.internal} (library loading,
 * downcall plumbing, encoders) and {@code io.rocksffm.internal.capi} (jextract's bindings of
 * RocksDB's {@code c.h}) are implementation details. Applications run with
 * {@code --enable-native-access=io.rocksffm} (or {@code ALL-UNNAMED} on the class path).
 */
module io.rocksffm {
    exports io.rocksffm;
    requires jdk.jfr; // EventListener.flightRecorder()
}
