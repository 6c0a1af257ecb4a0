package dev.yarpj.ir;

public enum UnOp {
    PLUS("+"), NEG("-"), BNOT("~"), LNOT("!");

    public final String symbol;

    UnOp(String symbol) {
        this.symbol = symbol;
    }
}
