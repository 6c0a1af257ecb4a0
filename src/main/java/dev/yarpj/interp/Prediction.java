package dev.yarpj.interp;

import java.util.List;

/**
 * The expected final state of a program: the value of each output scalar and the contents
 * of each output array (row-major), in checksum order, plus the checksum the driver prints.
 */
public record Prediction(List<Long> scalars, List<long[]> arrays, long checksum, long steps) {}
