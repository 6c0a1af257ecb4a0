package dev.yarpj.ir;

public enum BinOp {
    ADD("+"), SUB("-"), MUL("*"), DIV("/"), REM("%"),
    SHL("<<"), SHR(">>"),
    BAND("&"), BOR("|"), BXOR("^"),
    LT("<"), GT(">"), LE("<="), GE(">="), EQ("=="), NE("!="),
    LAND("&&"), LOR("||");

    public final String symbol;

    BinOp(String symbol) {
        this.symbol = symbol;
    }

    public boolean isShift() {
        return this == SHL || this == SHR;
    }

    public boolean isComparison() {
        return ordinal() >= LT.ordinal() && ordinal() <= NE.ordinal();
    }

    public boolean isLogical() {
        return this == LAND || this == LOR;
    }
}
