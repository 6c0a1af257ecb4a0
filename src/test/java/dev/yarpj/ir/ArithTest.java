package dev.yarpj.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArithTest {

    @ParameterizedTest(name = "common({0}, {1}) = {2}")
    @CsvSource({
        "SCHAR, UCHAR, INT", "SHORT, USHORT, INT", "BOOL, BOOL, INT",
        "INT, UINT, UINT", "UINT, LLONG, LLONG", "LLONG, ULLONG, ULLONG",
        "INT, LLONG, LLONG", "USHORT, UINT, UINT", "ULLONG, SCHAR, ULLONG"})
    void usualArithmeticConversionsFollowLp64(NumType a, NumType b, NumType want) {
        assertEquals(want, Arith.common(a, b));
        assertEquals(want, Arith.common(b, a));
    }

    @ParameterizedTest(name = "convert({0} to {1}) = {2}")
    @CsvSource({
        "300, UCHAR, 44", "-1, UCHAR, 255", "200, SCHAR, -56", "65536, SHORT, 0",
        "-1, UINT, 4294967295", "4294967296, INT, 0", "2, BOOL, 1", "0, BOOL, 0",
        "-1, ULLONG, -1", "2147483648, INT, -2147483648"})
    void conversionsWrapToTheTargetWidth(long v, NumType to, long want) {
        assertEquals(want, Arith.convert(v, to));
    }

    @ParameterizedTest(name = "{1} {0} {2} in {3}: {4}")
    @CsvSource({
        "ADD, 2147483647, 1, INT, SIGNED_OVERFLOW",
        "SUB, -2147483648, 1, INT, SIGNED_OVERFLOW",
        "MUL, 65536, 65536, INT, SIGNED_OVERFLOW",
        "MUL, 4294967296, 4294967296, LLONG, SIGNED_OVERFLOW",
        "ADD, 9223372036854775807, 1, LLONG, SIGNED_OVERFLOW",
        "ADD, 4294967295, 1, UINT, ",
        "DIV, 5, 0, UINT, DIVISION_BY_ZERO",
        "REM, 5, 0, INT, DIVISION_BY_ZERO",
        "DIV, -2147483648, -1, INT, DIVISION_OVERFLOW",
        "REM, -9223372036854775808, -1, LLONG, DIVISION_OVERFLOW",
        "DIV, -2147483648, -1, LLONG, ",
        "SHL, 1, 32, INT, SHIFT_AMOUNT",
        "SHR, 1, -1, INT, SHIFT_AMOUNT",
        "SHL, -1, 1, INT, SHIFT_OF_NEGATIVE",
        "SHL, 1, 31, INT, SHIFT_OVERFLOW",
        "SHL, 1, 30, INT, ",
        "SHL, 1, 63, ULLONG, ",
        "SHR, -8, 1, INT, "})
    void undefinedBehaviourIsNamed(BinOp op, long a, long b, NumType t, UbKind want) {
        assertEquals(want, Arith.binaryUb(op, t, a, t, b));
    }

    @ParameterizedTest(name = "{1} {0} {2} in {3} = {4}")
    @CsvSource({
        "ADD, 4294967295, 1, UINT, 0",
        "SUB, 0, 1, ULLONG, -1",
        "DIV, -1, 2, ULLONG, 9223372036854775807",
        "REM, -7, 2, INT, -1",
        "DIV, -7, 2, INT, -3",
        "SHR, -8, 1, INT, -4",
        "SHR, 4294967288, 1, UINT, 2147483644",
        "SHR, -8, 1, ULLONG, 9223372036854775804",
        "LT, -1, 0, ULLONG, 0",
        "LT, -1, 0, LLONG, 1",
        "MUL, 65536, 65536, UINT, 0"})
    void operatorsComputeCValues(BinOp op, long a, long b, NumType t, long want) {
        assertEquals(want, Arith.binary(op, t, a, t, b));
    }

    @ParameterizedTest(name = "{0} in {1}: ub={2}")
    @CsvSource({"-2147483648, INT, SIGNED_OVERFLOW", "-9223372036854775808, LLONG, SIGNED_OVERFLOW",
        "-2147483647, INT, ", "0, UINT, "})
    void negationOfTheMinimumIsUndefined(long a, NumType t, UbKind want) {
        assertEquals(want, Arith.unaryUb(UnOp.NEG, t, a));
    }

    @ParameterizedTest
    @CsvSource({"SHL, SCHAR, INT, INT", "SHR, ULLONG, SCHAR, ULLONG", "LT, ULLONG, INT, INT", "ADD, USHORT, SHORT, INT"})
    void resultTypesFollowTheOperator(BinOp op, NumType l, NumType r, NumType want) {
        assertEquals(want, Arith.resultType(op, l, r));
    }
}
