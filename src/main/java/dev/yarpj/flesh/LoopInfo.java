package dev.yarpj.flesh;

import dev.yarpj.ir.Iterator;

/** A loop in scope while its body is fleshed; {@code split} marks the odd/even partitioned loop. */
record LoopInfo(Iterator iter, IterationSpace space, boolean split) {}
