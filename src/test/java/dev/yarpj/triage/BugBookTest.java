package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grouping triaged findings into bugs, from the files triage leaves, without a compiler. */
class BugBookTest {
    private static void finding(Path results, String sig, long seed, String minimal, String group) throws Exception {
        Path f = Files.createDirectories(results.resolve("compile-hang").resolve(sig).resolve(Long.toString(seed)).resolve("triage"));
        Files.writeString(f.getParent().resolve("meta.json"), "{}\n");
        Files.writeString(f.resolve("triage.json"), "{\"kind\": \"compile-hang\", \"target\": \"host\", \"family\": \"clang\", \"minimal\": \""
                + minimal + "\", \"group\": \"" + group + "\", \"status\": \"open\", \"standing\": \"open\", \"lines\": " + seed + "}\n");
    }

    @Test
    void keysOfOneKnownBugAreOneBugAndOtherKeysStayApart(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        finding(results, "a", 1, "clang-23 -O2 -mllvm -force-vector-width=16", "clang: loop-load-elim");
        finding(results, "b", 2, "clang-23 -O3 -mllvm -force-vector-width=4", "clang: loop-load-elim");
        finding(results, "c", 3, "clang-23 -O2 -mllvm -force-vector-width=8 -mllvm -force-vector-interleave=4", "clang: loop-load-elim");
        BugBook.Book none = BugBook.read(results, KnownBugs.NONE);
        assertEquals(2, none.bugs().size(), "two keys: the interleave is in one smallest configuration only");
        assertEquals(2, none.bugs().get(0).findings().size() + none.bugs().get(1).findings().size() - 1);

        Path record = Files.createDirectories(dir.resolve("known").resolve("lle"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"LLE\", \"status\": \"open\", \"keys\": ["
                + "{\"kind\": \"compile-hang\", \"family\": \"clang\", \"blamed\": \"loop-load-elim\", \"options\": [\"-mllvm -force-vector-width=*\"]},"
                + "{\"kind\": \"compile-hang\", \"target\": \"host\", \"family\": \"clang\", \"blamed\": \"loop-load-elim\","
                + " \"options\": [\"-mllvm -force-vector-interleave=*\", \"-mllvm -force-vector-width=*\"]}]}\n");
        BugBook.Book known = BugBook.read(results, KnownBugs.load(dir.resolve("known")));
        assertEquals(1, known.bugs().size());
        assertEquals("lle", known.bugs().get(0).known().id());
        assertEquals(3, known.bugs().get(0).findings().size());
        assertEquals(1L, known.bugs().get(0).findings().get(0).seed(), "smallest first");

        // Another target is another bug, whatever the pass and options.
        Path other = Files.createDirectories(results.resolve("compile-hang").resolve("d").resolve("4").resolve("triage"));
        Files.writeString(other.getParent().resolve("meta.json"), "{}\n");
        Files.writeString(other.resolve("triage.json"), "{\"kind\": \"compile-hang\", \"target\": \"aarch64-sve\", \"family\": \"clang\","
                + " \"minimal\": \"clang-23 -O2 -mllvm -force-vector-width=16\", \"group\": \"clang: loop-load-elim\", \"status\": \"open\", \"lines\": 4}\n");
        BugBook.Book more = BugBook.read(results, KnownBugs.load(dir.resolve("known")));
        assertEquals(2, more.bugs().size());
        assertNull(more.bugs().stream().filter(b -> b.key().target().equals("aarch64-sve")).findFirst().orElseThrow().known());
    }

    private static void crash(Path results, String sig, long seed, String crash) throws Exception {
        Path f = Files.createDirectories(results.resolve("compiler-crash").resolve(sig).resolve(Long.toString(seed)).resolve("triage"));
        Files.writeString(f.getParent().resolve("meta.json"), "{}\n");
        Files.writeString(f.resolve("triage.json"), "{\"kind\": \"compiler-crash\", \"target\": \"host\", \"family\": \"gcc\", \"minimal\":"
                + " \"gcc-16 -O3 -march=x86-64-v4\", \"group\": \"gcc: -fno-tree-loop-vectorize\", \"crash\": \"" + crash
                + "\", \"status\": \"open\", \"standing\": \"open\", \"lines\": " + seed + "}\n");
    }

    /** Two crashes of one pass under the same options are two bugs when they crash in two places; a record's key names its place. */
    @Test
    void crashesOfOnePassInTwoPlacesAreTwoBugs(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        crash(results, "a", 1, "in vect_get_vec_defs_for_operand");
        crash(results, "b", 2, "in vect_get_vec_defs_for_operand");
        crash(results, "c", 3, "in vectorizable_load");
        BugBook.Book none = BugBook.read(results, KnownBugs.NONE);
        assertEquals(2, none.bugs().size());
        Path record = Files.createDirectories(dir.resolve("known").resolve("ice"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"ICE\", \"keys\": [{\"kind\": \"compiler-crash\", \"family\": \"gcc\","
                + " \"blamed\": \"tree-vect\", \"options\": [\"-march=*\"], \"crash\": \"in vectorizable_load\"}]}\n");
        BugBook.Book known = BugBook.read(results, KnownBugs.load(dir.resolve("known")));
        BugBook.Bug load = known.bugs().stream().filter(b -> b.key().crash().equals("in vectorizable_load")).findFirst().orElseThrow();
        assertEquals("ice", load.known().id());
        assertNull(known.bugs().stream().filter(b -> b.key().crash().startsWith("in vect_get")).findFirst().orElseThrow().known());
        assertEquals("compiler-crash, gcc, blamed: tree-vect, options: -march=*, crash: in vectorizable_load", load.key().line());
    }

    /** A finding whose compiler gets the known bug's own test right is not that bug, whatever its key: a new bug that resembles it. */
    @Test
    void aBugWhoseCompilerGetsTheRecordsTestRightIsNewAndResemblesIt(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        finding(results, "a", 1, "clang-23 -O1", "clang: loop-load-elim");
        Path record = Files.createDirectories(dir.resolve("known").resolve("lle"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"LLE\", \"keys\": [{\"kind\": \"compile-hang\", \"family\": \"clang\","
                + " \"blamed\": \"loop-load-elim\", \"options\": []}]}\n");
        KnownBugs known = KnownBugs.load(dir.resolve("known"));
        assertEquals("lle", BugBook.read(results, known).bugs().get(0).known().id(), "known until its test is rechecked");
        Path f = results.resolve("compile-hang/a/1");
        Files.writeString(Recheck.file(f, "lle"), "{\"known\": \"lle\", \"result\": \"gets it right\", \"status\": \"fixed\","
                + " \"campaign_compiler\": \"clang-23 23.1.9\"}\n");
        BugBook.Book book = BugBook.write(results, known);
        BugBook.Bug b = book.bugs().get(0);
        assertNull(b.known());
        assertEquals("lle", b.resembles().id());
        assertEquals(0, book.known());
        String line = BugBook.lines(book).get(0);
        assertEquals(true, line.startsWith("new " + b.id() + ", resembling known lle"), line);
        String report = Files.readString(results.resolve("bugs").resolve(b.id()).resolve("report.md"));
        assertEquals(true, report.contains("right on clang-23 23.1.9, which fails on these findings"), report);
        // A recheck that is not a fix (the record's test right on the version the record shows it on) leaves it known.
        Files.writeString(Recheck.file(f, "lle"), "{\"known\": \"lle\", \"result\": \"not rechecked: ...\", \"status\": \"unknown\"}\n");
        assertEquals("lle", BugBook.read(results, known).bugs().get(0).known().id());
    }
}
