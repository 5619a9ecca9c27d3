package io.rocksffm.kafka;

import io.rocksffm.Options;

import java.util.Map;

/**
 * The options hook of rocksffm stores, like Kafka's {@code RocksDBConfigSetter} but taking
 * rocksffm's {@link Options}. Name an implementation (a public class with a public no-argument
 * constructor) in the Streams configuration under {@link #CONFIG}; every rocksffm store then calls
 * {@link #setConfig} with the options it is about to open its database with, after setting its
 * defaults, and {@link #close} when the store closes.
 *
 * <pre>{@code
 * public static class BigCache implements RocksffmConfigSetter {
 *     public void setConfig(String storeName, Options options, Map<String, Object> configs) {
 *         options.setBlockCacheSize(256L << 20).setWriteBufferSize(64L << 20);
 *     }
 * }
 * props.put(RocksffmConfigSetter.CONFIG, BigCache.class);
 * }</pre>
 *
 * <p>The store owns and closes the {@link Options}; objects the setter makes itself (a shared
 * cache, a rate limiter) are its to close, in {@link #close}.
 */
public interface RocksffmConfigSetter {
    /** The Streams configuration key naming the setter class (a {@code Class} or a class name). */
    String CONFIG = "rocksffm.config.setter";

    /**
     * Adjusts the options of one store's database before it opens.
     *
     * @param storeName the store's name
     * @param options   the options, with the store's defaults already set
     * @param configs   the application's Streams configuration
     */
    void setConfig(String storeName, Options options, Map<String, Object> configs);

    /**
     * Called when the store closes, before it closes {@code options}.
     *
     * @param storeName the store's name
     * @param options   the options given to {@link #setConfig}
     */
    default void close(String storeName, Options options) {
    }
}
