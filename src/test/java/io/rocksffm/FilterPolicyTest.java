package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterPolicyTest {
    @TempDir
    Path dir;

    @Test
    void parametersAreChecked() {
        assertEquals(new FilterPolicy(FilterPolicy.Kind.BLOOM, 10), FilterPolicy.bloom(10));
        assertEquals(FilterPolicy.Kind.RIBBON, FilterPolicy.ribbon(9.5).kind());
        assertEquals(9.5, FilterPolicy.ribbon(9.5).bitsPerKey());
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> FilterPolicy.bloom(bad), String.valueOf(bad));
            assertThrows(IllegalArgumentException.class, () -> FilterPolicy.ribbon(bad), String.valueOf(bad));
        }
        assertThrows(NullPointerException.class, () -> new FilterPolicy(null, 10));
    }

    /** RocksDB writes the policy it uses into the database's OPTIONS file: each kind reaches it. */
    @Test
    void eachKindReachesTheDatabase() throws IOException {
        for (FilterPolicy policy : new FilterPolicy[] {FilterPolicy.bloom(10), FilterPolicy.ribbon(10)}) {
            Path path = dir.resolve(policy.kind().name());
            try (BlockBasedTableConfig table = new BlockBasedTableConfig().setFilterPolicy(policy);
                 Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
                 RocksDB db = RocksDB.open(path, options)) {
                db.put(TestSupport.bytes("k"), TestSupport.bytes("v"));
            }
            String written = optionsFile(path);
            String expected = policy.kind() == FilterPolicy.Kind.BLOOM ? "bloomfilter" : "ribbonfilter";
            assertTrue(written.toLowerCase().matches("(?s).*filter_policy=[^\\n]*" + expected + ".*"),
                    policy + ": " + written.lines().filter(l -> l.contains("filter_policy")).toList());
        }
    }

    static String optionsFile(Path db) throws IOException {
        try (Stream<Path> files = Files.list(db)) {
            Path latest = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-")).sorted()
                    .reduce((x, y) -> y).orElseThrow();
            return Files.readString(latest);
        }
    }
}
