package dev.yarpj.ir;

/**
 * ISPC's second type axis: a uniform value is shared by a gang of program instances, a
 * varying one has a lane per instance. C and C++ ignore it; the ISPC lowerer will read it.
 */
public enum Variability { UNIFORM, VARYING }
