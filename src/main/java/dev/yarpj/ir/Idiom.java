package dev.yarpj.ir;

/**
 * What a loop nest is for (policy idiom_weights; YARPGen v2, section 3.2). Decided by the
 * skeleton, honoured by fleshing, and kept on the built nest so that measurements (trip
 * counts, remarks) can be told apart per idiom.
 */
public enum Idiom { PLAIN, VECTORIZABLE, REDUCTION, STENCIL, MEMSET, MEMCPY }
