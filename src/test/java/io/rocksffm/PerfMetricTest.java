package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.capi.RocksDBC;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The metric ids against the headers: the bindings' (11.8.1) and, where installed, 7.8.3's. */
class PerfMetricTest {
    @Test
    void idsAreTheBindingsEnumConstants() throws Throwable {
        for (PerfMetric m : PerfMetric.values()) {
            MethodHandle constant = MethodHandles.lookup().findStatic(RocksDBC.class, "rocksdb_" + m.name().toLowerCase(),
                    MethodType.methodType(int.class));
            assertEquals(m.ordinal(), (int) constant.invoke(), m.name());
        }
        // every metric of the header is here (its count is 2 above the last id + 1, in 7.8.3's too)
        assertEquals(RocksDBC.rocksdb_total_metric_count() - 2, PerfMetric.values().length);
    }

    @Test
    void theOldestEnginesMetricsAreThoseSince78() throws IOException {
        Path header = Path.of("/usr/include/rocksdb/c.h");
        assumeTrue(Files.exists(header), "7.8.3's header is not installed");
        String text = Files.readString(header);
        assumeTrue(text.contains("rocksdb_total_metric_count = 78"), "the installed header is not 7.8.3's");
        int start = text.indexOf("rocksdb_user_key_comparison_count = 0");
        String body = text.substring(start, text.indexOf('}', start));
        Matcher n = Pattern.compile("rocksdb_(\\w+)").matcher(body);
        List<String> names = new ArrayList<>();
        while (n.find()) {
            if (!n.group(1).equals("total_metric_count")) {
                names.add(n.group(1).toUpperCase());
            }
        }
        List<String> old = new ArrayList<>();
        for (PerfMetric m : PerfMetric.values()) {
            if (m.since().equals("7.8")) {
                old.add(m.name());
            }
        }
        assertEquals(names, old); // same names in the same order: the same ids
    }

    @Test
    void levelsAreTheHeadersIds() {
        assertEquals(RocksDBC.rocksdb_disable(), PerfLevel.DISABLE.id);
        assertEquals(RocksDBC.rocksdb_enable_count(), PerfLevel.ENABLE_COUNT.id);
        assertEquals(RocksDBC.rocksdb_enable_time_except_for_mutex(), PerfLevel.ENABLE_TIME_EXCEPT_FOR_MUTEX.id);
        assertEquals(RocksDBC.rocksdb_enable_time(), PerfLevel.ENABLE_TIME.id);
    }
}
