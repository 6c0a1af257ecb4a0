package dev.yarpj.lower;

/**
 * Target languages. An ISPC test holds two lowerings of one program: {@code func.ispc} and
 * {@code func.cpp}, the C++ lowering of the same IR, so that the two can be checked against
 * each other; its driver is C++.
 */
public enum Language {
    C("c"), CPP("cpp"), ISPC("ispc");

    public final String extension;

    Language(String extension) {
        this.extension = extension;
    }

    /** The name used on the command line: c, cpp, ispc. */
    public String cliName() {
        return extension;
    }

    /** The language of the driver (and of init.h): C for C, else C++. */
    public Language driverLanguage() {
        return this == C ? C : CPP;
    }
}
