package dev.yarpj.interp;

import java.util.List;

/**
 * The expected final state of a program: the value of each output scalar and the contents
 * of each output array (row-major), in checksum order, plus the checksum the driver prints;
 * also what the execution cost: {@code steps} (statements and iterations executed) and the
 * trip profile of every static loop ({@code loops}, in program pre-order: a loop before the
 * loops inside it, a nest's levels outermost first); and whether {@code test()} left early
 * ({@code returned}: a return fired).
 */
public record Prediction(List<Long> scalars, List<long[]> arrays, long checksum, long steps, List<LoopTrips> loops, boolean returned) {}
