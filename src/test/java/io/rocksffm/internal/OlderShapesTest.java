package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The older C signatures rocksffm calls on older engines ({@link OlderShapes}): each prototype is
 * the one the older headers declare, and each descriptor calls that prototype.
 */
class OlderShapesTest {
    @Test
    void everyOlderShapeIsOfAChangedFunction() {
        assertEquals(OlderShapes.PROTOTYPES.keySet(), OlderShapes.DESCRIPTORS.keySet());
        for (String f : OlderShapes.PROTOTYPES.keySet()) {
            assertTrue(Capabilities.SIGNATURE_CHANGED.containsKey(f), f + " has an older shape but is not listed as changed");
            assertTrue(Capabilities.gated().contains(f), f);
        }
    }

    @Test
    void prototypesAreTheOlderHeaders() throws IOException {
        Map<String, Map<String, String>> older = Headers.older();
        assumeTrue(!older.isEmpty(), "no older header on this machine (Debian's librocksdb-dev, git history)");
        int checked = 0;
        for (Map.Entry<String, String> shape : OlderShapes.PROTOTYPES.entrySet()) {
            String since = Capabilities.SIGNATURE_CHANGED.get(shape.getKey());
            for (Map.Entry<String, Map<String, String>> header : older.entrySet()) {
                if (Capabilities.compareVersions(header.getKey(), since) < 0) {
                    assertEquals(header.getValue().get(shape.getKey()), Prototypes.normalize(shape.getValue()),
                            shape.getKey() + " in " + header.getKey());
                    checked++;
                }
            }
        }
        System.out.println("[rocksffm] older shapes checked against headers " + older.keySet() + ": " + checked);
        assertTrue(checked > 0);
    }

    @Test
    void descriptorsCallThePrototypes() {
        for (Map.Entry<String, String> shape : OlderShapes.PROTOTYPES.entrySet()) {
            assertEquals(descriptorOf(Prototypes.normalize(shape.getValue())), OlderShapes.DESCRIPTORS.get(shape.getKey()),
                    shape.getKey());
        }
        assertEquals(descriptorOf("unsigned char rocksdb_in_range ( void * , const char * , size_t )"),
                OlderShapes.SLICETRANSFORM_IN_RANGE);
    }

    /** The descriptor a normalised prototype is called with on x86-64 and AArch64 (LP64). */
    static FunctionDescriptor descriptorOf(String prototype) {
        int open = prototype.indexOf(" ( ");
        String[] head = prototype.substring(0, open).split(" ");
        String ret = String.join(" ", Arrays.copyOf(head, head.length - 1));
        String params = prototype.substring(open + 3, prototype.length() - 2);
        List<MemoryLayout> args = new ArrayList<>();
        int depth = 0;
        StringBuilder param = new StringBuilder();
        for (String tok : params.split(" ")) {
            if (tok.equals("(")) {
                depth++;
            } else if (tok.equals(")")) {
                depth--;
            }
            if (tok.equals(",") && depth == 0) {
                args.add(layoutOf(param.toString().strip()));
                param.setLength(0);
            } else {
                param.append(tok).append(' ');
            }
        }
        if (!param.toString().isBlank()) {
            args.add(layoutOf(param.toString().strip()));
        }
        MemoryLayout[] a = args.toArray(MemoryLayout[]::new);
        return ret.equals("void") ? FunctionDescriptor.ofVoid(a) : FunctionDescriptor.of(layoutOf(ret), a);
    }

    private static MemoryLayout layoutOf(String cType) {
        String t = cType.replace("const ", "").strip();
        if (t.contains("*")) {
            return ADDRESS;
        }
        return switch (t) {
            case "unsigned char", "char", "_Bool" -> JAVA_BYTE;
            case "int", "unsigned int", "uint32_t", "int32_t" -> JAVA_INT;
            case "size_t", "uint64_t", "int64_t", "long", "unsigned long" -> JAVA_LONG;
            case "double" -> JAVA_DOUBLE;
            default -> throw new IllegalArgumentException("no layout for C type " + cType);
        };
    }

    @Test
    void descriptorsOfPrototypesAreDerivedFromTheirTypes() {
        assertEquals(FunctionDescriptor.ofVoid(ADDRESS, JAVA_BYTE, ADDRESS),
                descriptorOf(Prototypes.normalize("void rocksdb_f(rocksdb_t* db, unsigned char force, char** errptr)")));
        assertEquals(FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_DOUBLE, ADDRESS),
                descriptorOf(Prototypes.normalize("size_t rocksdb_f(const rocksdb_t* db, uint32_t n, double d,"
                        + " void (*cb)(void*, int x))")));
    }
}
