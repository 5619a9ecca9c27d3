package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every surface that takes writes offers the same write methods, and every surface that reads the
 * same reads (issue 31): the overload sets of databases, transactions and both kinds of batch are
 * compared by reflection, so a form added to one surface only fails here.
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

    /** The public overloads of {@code name} in {@code type}, as "Return name(Param,...)". */
    private static Set<String> overloads(Class<?> type, String name) {
        return Arrays.stream(type.getMethods())
                .filter(m -> m.getName().equals(name) && !Modifier.isStatic(m.getModifiers()) && !m.isBridge())
                .map(m -> m.getReturnType().getSimpleName() + " " + signature(m))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** {@code reads}' overloads renamed to {@code name}, with {@code edit} applied to their parameter lists. */
    private static Set<String> mapped(Set<String> reads, String name, UnaryOperator<String> edit) {
        return reads.stream().map(r -> {
            int open = r.indexOf('(');
            String returns = r.substring(0, r.indexOf(' '));
            String params = r.substring(open + 1, r.length() - 1);
            return returns + " " + name + "(" + edit.apply(params) + ")";
        }).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The indexed batch reads in the shape of the database's reads (issue 31): through the batch
     * to a database, the overloads of {@code get}, {@code getPinned} and {@code newIterator} with
     * the database first; from the batch alone, those of {@code get} with the database's
     * {@link Options} in place of the read options. Transactions have the database's reads.
     */
    @Test
    void everyReadSurfaceHasTheSameReads() {
        Set<String> gets = overloads(KeyValueReads.class, "get");
        assertEquals(6, gets.size(), "family or not, segments or arrays, options or not: " + gets);
        for (Class<?> surface : List.of(Database.class, RocksDB.class, TransactionDB.class, OptimisticTransactionDB.class,
                Transaction.class)) {
            for (String read : List.of("get", "getPinned", "multiGet", "multiGetAsList", "newIterator")) {
                assertEquals(overloads(KeyValueReads.class, read), overloads(surface, read),
                        surface.getSimpleName() + " " + read);
            }
        }
        UnaryOperator<String> withDatabase = p -> p.isEmpty() ? "Database" : "Database," + p;
        UnaryOperator<String> withOptions = p -> p.replace("ReadOptions", "Options");
        Map<String, Set<String>> expected = Map.of(
                "getFromBatchAndDB", mapped(gets, "getFromBatchAndDB", withDatabase),
                "getPinnedFromBatchAndDB", mapped(overloads(KeyValueReads.class, "getPinned"), "getPinnedFromBatchAndDB",
                        withDatabase),
                "newIteratorWithBase", mapped(overloads(KeyValueReads.class, "newIterator"), "newIteratorWithBase",
                        withDatabase),
                "getFromBatch", mapped(gets, "getFromBatch", withOptions));
        assertEquals(6, expected.get("getFromBatch").size(), "the forms of get: " + expected);
        for (Class<?> surface : List.of(BatchReads.class, WriteBatchWithIndex.class)) {
            for (Map.Entry<String, Set<String>> e : expected.entrySet()) {
                assertEquals(e.getValue(), overloads(surface, e.getKey()), surface.getSimpleName() + " " + e.getKey());
            }
        }
    }
}
