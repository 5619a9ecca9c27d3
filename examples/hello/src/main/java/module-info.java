/** The example as a module: it needs only rocksffm. */
module io.rocksffm.example {
    requires io.rocksffm;
}
