package dev.yarpj.gen;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.LoweredTest;
import dev.yarpj.skeleton.Skeleton;

/** One generated test: its skeleton, IR, predicted outputs and source files. */
public record GeneratedTest(long seed, Skeleton skeleton, Program program, Prediction prediction, LoweredTest files) {
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
