package dev.yarpj.lower;

/**
 * Target languages. An ISPC test holds two lowerings of one program: {@code func.ispc} and
 * {@code func.cpp}, the C++ lowering of the same IR, so that the two can be checked against
 * each other; its driver is C++. A SYCL test likewise holds {@code func.cpp} (SYCL 2020,
 * which is C++) and {@code func_ref.cpp}, the plain C++ lowering.
 */
public enum Language {
    C("c", "c"), CPP("cpp", "cpp"), ISPC("ispc", "ispc"), SYCL("sycl", "cpp");

    private final String cliName;
    /** The extension of {@code func} and {@code driver}. */
    public final String extension;

    Language(String cliName, String extension) {
        this.cliName = cliName;
        this.extension = extension;
    }

    /** The name used on the command line: c, cpp, ispc, sycl. */
    public String cliName() {
        return cliName;
    }

    /** The language of the driver (and of init.h): C for C, else C++. */
    public Language driverLanguage() {
        return this == C ? C : CPP;
    }
}
