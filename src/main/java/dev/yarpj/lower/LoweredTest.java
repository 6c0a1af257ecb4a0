package dev.yarpj.lower;

import java.util.Map;

/**
 * The files of one test, by name (func.c, driver.c, init.h), in a fixed order, and counts of
 * the choices the lowerer made among spellings (for ISPC: gang loops by form, partial
 * results, varying ifs ...), for variety reports.
 */
public record LoweredTest(Map<String, String> files, Map<String, Integer> choices) {
    public LoweredTest(Map<String, String> files) {
        this(files, Map.of());
    }
}
