package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Every command's --help formats: a bare % in an option's text makes picocli print a warning and the raw text. */
class HelpTextTest {
    @Test
    void everyCommandsHelpFormatsWithoutAWarning() {
        PrintStream old = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(warnings, true));
            for (String cmd : Main.commandLine().getSubcommands().keySet()) {
                var cl = Main.commandLine();
                StringWriter out = new StringWriter();
                cl.setOut(new PrintWriter(out));
                cl.setErr(new PrintWriter(new StringWriter()));
                assertEquals(0, cl.execute(cmd, "--help"), cmd);
                assertFalse(out.toString().isBlank(), cmd);
            }
        } finally {
            System.setErr(old);
        }
        assertFalse(warnings.toString().contains("picocli WARN"), warnings.toString());
    }
}
