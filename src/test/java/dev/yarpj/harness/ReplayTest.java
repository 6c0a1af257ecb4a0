package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.yarpj.lower.Language;
import org.junit.jupiter.api.Test;

/** The compiler a finding's program is built by in another language: the buggy compiler's C or C++ sibling. */
class ReplayTest {
    @Test
    void aCompilerNamesItsCOrCppSiblingWithItsPrefixSuffixAndDirectory() {
        assertEquals("g++-trunk", Replay.sibling("gcc-trunk", Language.CPP));
        assertEquals("gcc-16", Replay.sibling("g++-16", Language.C));
        assertEquals("/opt/x/bin/aarch64-linux-gnu-g++-16", Replay.sibling("/opt/x/bin/aarch64-linux-gnu-gcc-16", Language.CPP));
        assertEquals("clang++-23", Replay.sibling("clang-23", Language.CPP));
        assertEquals("clang-23", Replay.sibling("clang++-23", Language.C));
        assertEquals("clang", Replay.sibling("clang", Language.C));
        assertEquals("g++", Replay.sibling("g++", Language.CPP));
        assertEquals("c++", Replay.sibling("cc", Language.CPP));
        // A wrapper script of neither name builds both.
        assertEquals("/t/miscompile.sh", Replay.sibling("/t/miscompile.sh", Language.CPP));
        assertEquals("/t/miscompile.sh", Replay.sibling("/t/miscompile.sh", Language.C));
    }
}
