package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.rocksdb_get_options_from_string;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Options derived by RocksDB from other options ({@link Options#fromString}): the copy RocksDB
 * makes, and what it inherits from its base (the Java objects RocksDB's copy points at, the key
 * order of its comparator).
 */
final class DerivedOptions {
    private DerivedOptions() {}

    /** {@link Options#fromString}. */
    static Options fromString(Options base, String text) {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(text, "text");
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("options text contains a NUL character");
        }
        Options out = new Options();
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cText = arena.allocateFrom(text);
            out.use(o -> base.use(b -> rocksdb_get_options_from_string(b, cText, o, s.errptr)));
            Native.check(s.errptr);
            out.inherit(base);
            out.fromText = true;
            out.inheritEnvironment(base);
            String comparator = KeyOrder.comparatorIn(text);
            out.keys.inherit(comparator != null ? KeyOrder.named(comparator) : base.keyOrder());
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }

    /**
     * The names of the merge operators RocksDB registers in its object registry (class names and
     * short names, from RocksDB's {@code utilities/merge_operators.cc}, the same in 7.8 to 11.x):
     * the candidates an unknown name's message lists when the engine knows them.
     */
    static final List<String> BUILT_IN_MERGE_OPERATORS = List.of(
            "uint64add", "UInt64AddOperator", "stringappend", "StringAppendOperator",
            "stringappendtest", "StringAppendTESTOperator", "max", "MaxOperator", "put", "PutOperator",
            "put_v1", "sortlist", "MergeSortOperator", "bytesxor", "BytesXOR");

    /** What a merge operator's name may hold: no separators of RocksDB's option strings. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]+");
    /** An option no merge operator has: configuring a created operator with it fails. */
    private static final String PROBE = "rocksffm_unknown_option_probe";

    private static volatile List<String> knownMergeOperators;

    /**
     * {@link Options#setMergeOperatorName}: RocksDB parses {@code merge_operator=NAME} onto the
     * options themselves (the C API sets a named merge operator no other way). RocksDB's parser
     * ignores a name its object registry does not know ({@code ConfigOptions}'
     * {@code ignore_unsupported_options} is true by default, and the C API does not change it),
     * so the name is first checked with {@link #engineKnowsMergeOperator}.
     */
    static void setMergeOperatorName(Options options, String name) {
        Objects.requireNonNull(name, "name");
        options.lifecycle.ensureOpen();
        if (!engineKnowsMergeOperator(name)) {
            throw new IllegalArgumentException("the RocksDB engine " + Capabilities.engineDescription()
                    + " has no merge operator named '" + name + "'; it knows " + knownMergeOperators());
        }
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cText = arena.allocateFrom("merge_operator=" + name);
            options.use(p -> rocksdb_get_options_from_string(p, cText, p, s.errptr));
            Native.check(s.errptr);
            options.fromText = true; // an open learns the family's merge operator from the OPTIONS file
        }
    }

    /**
     * Whether the engine's object registry makes a merge operator of {@code name}: RocksDB parses
     * {@code merge_operator={id=NAME;PROBE=1}} onto fresh options, which fails when it made the
     * operator (configuring it with an option no operator has) and succeeds when it ignored an
     * unknown name (nothing made, nothing configured).
     */
    static boolean engineKnowsMergeOperator(String name) {
        if (!NAME.matcher(name).matches()) {
            return false;
        }
        try (Options base = new Options(); Options out = new Options();
             Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cText = arena.allocateFrom("merge_operator={id=" + name + ";" + PROBE + "=1}");
            out.use(o -> base.use(b -> rocksdb_get_options_from_string(b, cText, o, s.errptr)));
            RocksDBException e = Native.takeError(s.errptr, 0);
            return e != null;
        }
    }

    /** {@return the names of {@link #BUILT_IN_MERGE_OPERATORS} the engine knows (asked once)} */
    static List<String> knownMergeOperators() {
        List<String> known = knownMergeOperators;
        if (known == null) {
            known = BUILT_IN_MERGE_OPERATORS.stream().filter(DerivedOptions::engineKnowsMergeOperator).toList();
            knownMergeOperators = known;
        }
        return known;
    }
}
