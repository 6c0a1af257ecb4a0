package dev.yarpj.skeleton;

import dev.yarpj.ir.Idiom;
import java.util.List;

/**
 * The skeleton of one test function, and the work budget its trips were planned for (in
 * interpreter steps, as the policy's max_iterations counts them; 0: the policy's own).
 */
public record Skeleton(List<Shape> body, long iterations) {
    public Skeleton(List<Shape> body) {
        this(body, 0);
    }

    /** The work budget of this test: its own if it has one, else the policy's {@code max_iterations}. */
    public long iterations(long policyMaxIterations) {
        return iterations > 0 ? iterations : policyMaxIterations;
    }

    /** A readable outline without expression detail, one statement per line. */
    public String dump() {
        StringBuilder sb = new StringBuilder();
        block(sb, body, 0);
        return sb.toString();
    }

    private static void block(StringBuilder sb, List<Shape> shapes, int indent) {
        for (Shape s : shapes) shape(sb, s, indent);
    }

    private static void shape(StringBuilder sb, Shape s, int indent) {
        String pad = "  ".repeat(indent);
        if (s instanceof Shape.Slot slot) {
            sb.append(pad).append(slot.kind().name().toLowerCase().replace('_', ' ')).append('\n');
        } else if (s instanceof Shape.IfShape i) {
            sb.append(pad).append(switch (i.cond()) {
                case PARITY -> "if parity";
                case INVARIANT -> "if loop-invariant";
                default -> "if";
            }).append('\n');
            block(sb, i.then(), indent + 1);
            if (i.otherwise() != null) {
                sb.append(pad).append("else\n");
                block(sb, i.otherwise(), indent + 1);
            }
        } else if (s instanceof Shape.Nest n) {
            nest(sb, n, indent, pad);
        } else if (s instanceof Shape.Seq q) {
            sb.append(pad).append("loop sequence").append(q.sharedSpace() ? " (shared space)" : "").append('\n');
            for (Shape.Nest n : q.nests()) nest(sb, n, indent + 1, pad + "  ");
        }
    }

    private static void nest(StringBuilder sb, Shape.Nest n, int indent, String pad) {
        Shape.NestPlan p = n.plan();
        sb.append(pad).append("loop nest depth ").append(n.depth());
        if (p.idiom() != Idiom.PLAIN) sb.append(", ").append(p.idiom().name().toLowerCase());
        else if (p.access() != Shape.Access.RANDOM) sb.append(", ").append(p.access().name().toLowerCase().replace('_', '-')).append(" access");
        if (p.stencil() != null) {
            Shape.StencilPlan st = p.stencil();
            sb.append(" (").append(st.taps()).append(" taps over ").append(st.arrays()).append(" array(s), ")
                    .append(st.dims()).append("-d, reach ").append(st.reach()).append(" x stride ").append(st.stride())
                    .append(st.reduced() ? ", reduced" : "").append(')');
        }
        if (p.group() > 1) sb.append(", interleaved in groups of ").append(p.group());
        if (p.pragma() != dev.yarpj.ir.Pragma.NONE) sb.append(", pragma ").append(p.pragma().name().toLowerCase());
        if (n.splitLevel() >= 0) sb.append(" (odd/even split at level ").append(n.splitLevel()).append(')');
        sb.append('\n');
        for (int l = 0; l < n.depth(); l++) {
            Shape.Level lv = n.levels().get(l);
            sb.append(pad).append("  ".repeat(l + 1)).append("loop ").append(l).append(" (trip ").append(lv.trip()).append(")\n");
            block(sb, lv.prefix(), indent + l + 2);
        }
        block(sb, n.body(), indent + n.depth() + 1);
        for (int l = n.depth() - 1; l >= 0; l--) {
            List<Shape> suffix = n.levels().get(l).suffix();
            if (!suffix.isEmpty()) {
                sb.append(pad).append("  ".repeat(l + 1)).append("after loop ").append(l + 1).append('\n');
                block(sb, suffix, indent + l + 2);
            }
        }
    }
}
