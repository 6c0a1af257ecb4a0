package dev.yarpj.ir;

import static dev.yarpj.ir.FloatArith.bits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rule of quanta and bounds that keeps a floating expression exact in any order. */
class AnyOrderTest {
    @Test
    void aValueAloneHasItsLowestBitAndAtLeastOne() {
        assertEquals(new AnyOrder(-3, 2.625), AnyOrder.of(bits(2.625)));  // 21/8
        assertEquals(new AnyOrder(0, 0x1p22), AnyOrder.of(bits(-0x1p22))); // a quantum never above 0
        assertEquals(new AnyOrder(-2, 1), AnyOrder.of(bits(0.25)));       // a bound never below 1
        assertEquals(new AnyOrder(0, 1), AnyOrder.of(0));
    }

    @Test
    void aDivisionIsTheProductByItsReciprocal() {
        AnyOrder a = AnyOrder.of(bits(0x1p22));
        // By 2: a finer quantum, the same bound.
        assertEquals(new AnyOrder(-1, 0x1p22), a.dividedBy(bits(2.0)));
        // By 1/4: four times the bound. (2^22 / 0.25) + -2 + 1 is exact as written in float
        // (2^24 - 1), but fast-math may add the 1 first: 2^24 + 1 rounds.
        AnyOrder sum = a.dividedBy(bits(0.25)).combine(BinOp.ADD, AnyOrder.of(bits(-2.0))).combine(BinOp.ADD, AnyOrder.of(bits(1.0)));
        assertTrue(!sum.holds(NumType.FLOAT), sum.toString());
        assertTrue(sum.holds(NumType.DOUBLE), sum.toString());
    }

    @Test
    void aTypeHoldsEveryMultipleOfTheQuantumBelowItsPrecision() {
        assertTrue(AnyOrder.holdsAll(NumType.FLOAT, 0, 0x1p24 - 1));
        assertTrue(!AnyOrder.holdsAll(NumType.FLOAT, 0, 0x1p24));
        assertTrue(AnyOrder.holdsAll(NumType.FLOAT, -3, 0x1p21 - 1) && !AnyOrder.holdsAll(NumType.FLOAT, -3, 0x1p21));
        // A quantum below the smallest normal number: subnormal values, which fast-math flushes.
        assertTrue(!AnyOrder.holdsAll(NumType.FLOAT, -127, 1));
        assertTrue(AnyOrder.holdsAll(NumType.DOUBLE, -40, 1)); // 2^-40 steps up to 1: 41 bits
    }
}
