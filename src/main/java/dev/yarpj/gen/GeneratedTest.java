package dev.yarpj.gen;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.LoweredTest;
import dev.yarpj.skeleton.Skeleton;

/**
 * One generated test: its skeleton, IR, predicted outputs and source files, and the recipe
 * that interprets and lowers its IR again (null for a test made by hand, whose files are all
 * there is of it).
 */
public record GeneratedTest(long seed, Skeleton skeleton, Program program, Prediction prediction, LoweredTest files, Recipe recipe) {
    public GeneratedTest(long seed, Skeleton skeleton, Program program, Prediction prediction, LoweredTest files) {
        this(seed, skeleton, program, prediction, files, null);
    }

    public String funcFile() {
        return files.files().keySet().iterator().next();
    }

    public int funcLines() {
        String text = files.files().get(funcFile());
        int n = 0;
        for (int i = 0; i < text.length(); i++) if (text.charAt(i) == '\n') n++;
        return n;
    }
}
