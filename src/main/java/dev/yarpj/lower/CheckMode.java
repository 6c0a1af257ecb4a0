package dev.yarpj.lower;

/** What the driver does with the outputs: print one checksum, or compare each with its prediction. */
public enum CheckMode { HASH, ASSERTS }
