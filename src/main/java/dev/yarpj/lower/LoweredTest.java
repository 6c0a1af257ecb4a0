package dev.yarpj.lower;

import java.util.Map;

/** The files of one test, by name (func.c, driver.c, init.h), in a fixed order. */
public record LoweredTest(Map<String, String> files) {}
