package com.example.wordcount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

class WordCountAppTest {
    @TempDir
    Path dir;

    @Test
    void countsWordsOnRocksffmStores() {
        // --- guide:test begin
        try (TopologyTestDriver driver = new TopologyTestDriver(WordCountApp.topology(),
                WordCountApp.config("unused:9092", dir.toString()))) {
            TestInputTopic<String, String> text = driver.createInputTopic("text",
                    Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, Long> counts = driver.createOutputTopic("word-counts",
                    Serdes.String().deserializer(), Serdes.Long().deserializer());
            text.pipeInput("Hello rocksffm");
            text.pipeInput("hello Kafka Streams");
            assertEquals(List.of(KeyValue.pair("hello", 1L), KeyValue.pair("rocksffm", 1L), KeyValue.pair("hello", 2L),
                    KeyValue.pair("kafka", 1L), KeyValue.pair("streams", 1L)), counts.readKeyValuesToList());
            KeyValueStore<String, ValueAndTimestamp<Long>> store = driver.getTimestampedKeyValueStore("counts");
            assertEquals(2L, store.get("hello").value());
            // The store's database: <state dir>/<application id>/<task>/rocksffm/<store name>
            assertEquals(true, Files.isDirectory(dir.resolve("wordcount/0_0/rocksffm/counts")));
        }
        // --- guide:test end
    }
}
