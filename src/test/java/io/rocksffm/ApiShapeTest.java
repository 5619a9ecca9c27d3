package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every surface that takes writes offers the same write methods (issue 31): the overload sets of
 * databases, transactions and both kinds of batch are compared by reflection, so a form added to
 * one surface only fails here.
 */
class ApiShapeTest {
    private static final Set<String> WRITES = Set.of("put", "merge", "delete", "singleDelete", "deleteRange");

    /** The public write overloads of {@code type}, as "name(Param,...)", without the WriteOptions ones. */
    private static Set<String> writes(Class<?> type, boolean withOptions) {
        return Arrays.stream(type.getMethods())
                .filter(m -> WRITES.contains(m.getName()) && !Modifier.isStatic(m.getModifiers()) && !m.isBridge())
                .filter(m -> withOptions == Arrays.asList(m.getParameterTypes()).contains(WriteOptions.class))
                .map(ApiShapeTest::signature)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(",", "(", ")"));
    }

    @Test
    void everySurfaceHasTheSameWrites() {
        Set<String> expected = writes(Writes.class, false);
        assertEquals(4 * WRITES.size(), expected.size(), "family or not, segments or arrays: " + expected);
        for (Class<?> surface : List.of(Database.class, RocksDB.class, TransactionDB.class, OptimisticTransactionDB.class,
                Transaction.class, WriteBatch.class, WriteBatchWithIndex.class)) {
            assertEquals(expected, writes(surface, false), surface.getSimpleName() + " writes differ from Writes");
        }
    }

    @Test
    void databasesHaveAWriteOptionsFormOfEveryWrite() {
        Set<String> expected = writes(Writes.class, false).stream()
                .map(s -> s.replaceFirst("\\(ColumnFamilyHandle,", "(ColumnFamilyHandle,WriteOptions,")
                        .replaceFirst("\\((MemorySegment|byte\\[\\])", "(WriteOptions,$1"))
                .collect(Collectors.toCollection(TreeSet::new));
        for (Class<?> db : List.of(Database.class, RocksDB.class, TransactionDB.class, OptimisticTransactionDB.class)) {
            assertEquals(expected, writes(db, true), db.getSimpleName() + " WriteOptions forms");
        }
        for (Class<?> other : List.of(Transaction.class, WriteBatch.class, WriteBatchWithIndex.class)) {
            assertEquals(Set.of(), writes(other, true), other.getSimpleName() + " takes no write options per write");
        }
    }

    @Test
    void everyWriteReturnsItsSurface() {
        for (Class<?> surface : List.of(RocksDB.class, Transaction.class, WriteBatch.class, WriteBatchWithIndex.class)) {
            Class<?> self = surface == RocksDB.class ? Database.class : surface;
            for (Method m : surface.getMethods()) {
                if (WRITES.contains(m.getName()) && !m.isBridge()) {
                    boolean typeVariable = m.getGenericReturnType() instanceof TypeVariable<?>;
                    assertTrue(typeVariable || self.isAssignableFrom(m.getReturnType()), signature(m) + " of " + surface.getSimpleName()
                            + " returns " + m.getReturnType().getSimpleName());
                }
            }
        }
    }
}
