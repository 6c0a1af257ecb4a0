package dev.yarpj.stats;

/** Why a seed was left out of the counts. */
public enum Skip {
    GENERATOR("generator failure"), COMPILE("compile failure"), TIMEOUT("compile timeout"),
    /** The test binary crashed, exited non-zero or printed something unexpected (ISPC masks only). */
    RUN("run failure"),
    /** The test binary ran out of time (ISPC masks only). */
    RUN_TIMEOUT("run timeout"),
    /** The test binary printed a checksum other than the prediction (ISPC masks only): a bug to look at. */
    MISMATCH("checksum mismatch");

    public final String label;

    Skip(String label) {
        this.label = label;
    }
}
