package dev.yarpj.stats;

/**
 * What an optimization remark says, folded to three kinds so that clang's and gcc's tables
 * look alike: a transformation was done, was not done, or a note.
 *
 * <p>clang: {@code !Passed} is PASSED, {@code !Missed} and {@code !Failure} are MISSED, and
 * {@code !Analysis}, {@code !AnalysisFPCommute}, {@code !AnalysisAliasing} (and any other tag)
 * are ANALYSIS. gcc's {@code -fopt-info}: {@code optimized} is PASSED, {@code missed} is
 * MISSED, {@code note} is ANALYSIS.
 */
public enum RemarkKind {
    PASSED("Passed"), MISSED("Missed"), ANALYSIS("Analysis");

    private final String label;

    RemarkKind(String label) {
        this.label = label;
    }

    /** Passed, Missed or Analysis: the name used in every output format. */
    public String label() {
        return label;
    }

    /** The kind of a clang remark document tag, without the {@code !}: Passed, Missed, Failure, Analysis... */
    public static RemarkKind ofClangTag(String tag) {
        if (tag.equals("Passed")) return PASSED;
        if (tag.equals("Missed") || tag.equals("Failure")) return MISSED;
        return ANALYSIS;
    }

    /** The kind of a gcc {@code -fopt-info} line's kind word, or null if it is none of optimized, missed, note. */
    public static RemarkKind ofGccWord(String word) {
        return switch (word) {
            case "optimized" -> PASSED;
            case "missed" -> MISSED;
            case "note" -> ANALYSIS;
            default -> null;
        };
    }
}
