package dev.yarpj.gen;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The yarpj version, from the build. */
public final class Version {
    private Version() {}

    public static final String VALUE = load();

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/yarpj-version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
