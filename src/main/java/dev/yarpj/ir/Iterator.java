package dev.yarpj.ir;

/**
 * A loop induction variable. Iterators are kept apart from data: they appear in loop
 * headers, array subscripts and parity tests, never in the random arithmetic.
 */
public record Iterator(int slot, String name, NumType type) {}
