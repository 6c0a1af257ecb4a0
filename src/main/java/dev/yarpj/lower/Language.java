package dev.yarpj.lower;

/** Target languages. ISPC and SYCL will join C and C++ here. */
public enum Language {
    C("c"), CPP("cpp");

    public final String extension;

    Language(String extension) {
        this.extension = extension;
    }

    /** The name used on the command line: c, cpp. */
    public String cliName() {
        return extension;
    }
}
