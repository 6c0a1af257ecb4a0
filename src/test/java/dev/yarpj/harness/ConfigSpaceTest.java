package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration spaces: how testbeds files give them, how a test draws from them, and what a compiler refuses. */
class ConfigSpaceTest {
    @TempDir
    Path dir;

    private Testbeds load(String yaml) throws Exception {
        Path f = dir.resolve("testbeds.yaml");
        Files.writeString(f, yaml);
        return Testbeds.load(f);
    }

    @Test
    void aSeedDrawsTheSameConfigurationEveryTimeAndTheWeightsSayHowOften() throws Exception {
        Testbed t = load("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: s\n    c: gcc\n    flags: [-w]\n    axes:\n"
                + "      opt: [-O2, {flags: -O3, weight: 3}]\n      lto: [\"\", -flto]\n").all().get(0);
        int o3 = 0;
        int n = 4000;
        for (long seed = 0; seed < n; seed++) {
            Testbed d = t.drawn(seed);
            assertEquals(d, t.drawn(seed));
            assertEquals("-w", d.flags().get(0), "the testbed's own flags come first");
            assertEquals(List.of("opt", "lto"), List.copyOf(d.drawn().keySet()));
            assertNull(d.space());
            if (d.flags().contains("-O3")) o3++;
            assertEquals(d.flags().contains("-flto"), d.linksWithLto());
        }
        // -O3 has three times -O2's weight: drawn 3/4 of the time (within 4.5 standard deviations of 4,000 draws).
        assertTrue(Math.abs(o3 / (double) n - 0.75) < 0.031, o3 + " of " + n);
        // Another testbed with the same space draws apart from this one.
        Testbed other = t.named("s2");
        long same = java.util.stream.LongStream.range(0, 200).filter(s -> t.drawn(s).flags().equals(other.drawn(s).flags())).count();
        assertTrue(same < 120, same + " of 200 draws alike");
        Map<String, String> drawn = new java.util.LinkedHashMap<>();
        drawn.put("opt", "-O3");
        drawn.put("unroll", ConfigSpace.NONE);
        drawn.put("lto", "-flto");
        assertEquals("-O3 -flto", new Testbed("x", "gcc", null, null, null, null, null, List.of(), Testbed.HOST, List.of(), null, drawn, null).drawnLabel());
    }

    @Test
    void theEmulatorFollowsTheDrawOfTheShippedRiscvAndSveSpaces() {
        Pattern zvl = Pattern.compile("-march=rv64gcv(?:_zvl(\\d+)b)?");
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-riscv64-rvv-space.yaml")).all()) {
            for (long seed = 0; seed < 300; seed++) {
                Testbed d = t.drawn(seed);
                Matcher m = zvl.matcher(String.join(" ", d.flags()));
                assertTrue(m.find(), d.flags().toString());
                int min = m.group(1) == null ? 128 : Integer.parseInt(m.group(1));
                String cpu = d.run().get(2);
                int vlen = Integer.parseInt(cpu.replaceAll(".*vlen=(\\d+).*", "$1"));
                assertTrue(vlen >= min && vlen <= 1024, d.flags() + " run at " + cpu);
                // Code for exactly the minimum length runs at that length only.
                if (d.flags().contains("-mrvv-vector-bits=zvl")) assertEquals(min, vlen, d.flags() + " run at " + cpu);
            }
        }
        Pattern bits = Pattern.compile("-msve-vector-bits=(\\d+)");
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-aarch64-sve-space.yaml")).all()) {
            for (long seed = 0; seed < 300; seed++) {
                Testbed d = t.drawn(seed);
                int bytes = Integer.parseInt(d.run().get(2).replaceAll(".*sve-default-vector-length=(\\d+).*", "$1"));
                Matcher m = bits.matcher(String.join(" ", d.flags()));
                if (m.find()) assertEquals(Integer.parseInt(m.group(1)), 8 * bytes, d.flags() + " run at " + d.run());
                else assertTrue(List.of(16, 32, 64, 128, 256).contains(bytes), d.run().toString());
            }
        }
    }

    @Test
    void aBuildForAnyVectorLengthRunsAtEveryLengthItsAlternativeAllowsAndOneForExactlyOneLengthAtThatOne() {
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-aarch64-sve-space.yaml")).all()) {
            for (long seed = 0; seed < 200; seed++) {
                Testbed d = t.drawn(seed);
                String flags = String.join(" ", d.flags());
                List<String> labels = d.settings().stream().map(Testbed.EmulatorSetting::label).toList();
                assertEquals(d.run(), d.settings().get(0).run(), "the drawn length runs first");
                if (flags.contains("-msve-vector-bits=") || !flags.contains("sve")) {
                    assertEquals(1, d.settings().size(), flags + " " + labels);
                } else {
                    assertEquals(List.of("sve_bytes=128", "sve_bytes=16", "sve_bytes=256", "sve_bytes=32", "sve_bytes=64"),
                            labels.stream().sorted().toList(), flags);
                }
            }
        }
        Pattern zvl = Pattern.compile("-march=rv64gcv(?:_zvl(\\d+)b)?");
        int ta = 0;
        int n = 0;
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-riscv64-rvv-space.yaml")).all()) {
            for (long seed = 0; seed < 200; seed++) {
                Testbed d = t.drawn(seed);
                String flags = String.join(" ", d.flags());
                Matcher m = zvl.matcher(flags);
                assertTrue(m.find(), flags);
                int min = m.group(1) == null ? 128 : Integer.parseInt(m.group(1));
                List<Integer> lengths = new ArrayList<>();
                for (Testbed.EmulatorSetting at : d.settings()) {
                    String cpu = at.run().get(2);
                    lengths.add(Integer.parseInt(cpu.replaceAll(".*vlen=(\\d+).*", "$1")));
                    // The emulator's freedoms are drawn once per test: every length runs under the same ones.
                    assertEquals(d.run().get(2).replaceAll("vlen=\\d+", ""), cpu.replaceAll("vlen=\\d+", ""));
                }
                List<Integer> want = flags.contains("-mrvv-vector-bits=zvl") ? List.of(min)
                        : java.util.stream.Stream.of(128, 256, 512, 1024).filter(v -> v >= min).toList();
                assertEquals(want, lengths.stream().sorted().toList(), flags);
                String cpu = d.run().get(2);
                assertTrue(cpu.matches(".*,rvv_ta_all_1s=(true|false),rvv_ma_all_1s=(true|false),rvv_vl_half_avl=(true|false)"), cpu);
                if (cpu.contains("rvv_ta_all_1s=true")) ta++;
                n++;
                // Recorded with the drawn options, but not in what signs a finding: no compiler option changed.
                assertTrue(d.drawn().get("ta").matches("\\(run: ta=(true|false)\\)"), d.drawn().toString());
                assertFalse(d.drawnLabel().contains("run:"), d.drawnLabel());
            }
        }
        assertTrue(ta > n / 4 && ta < 3 * n / 4, ta + " of " + n + " draws fill tail-agnostic elements with ones");
    }

    @Test
    void theEmulatorFollowsTheDrawOfThePowerAndLoongArchSpaces() {
        // POWER: code for one processor runs on it or a newer one, never an older.
        List<String> power = List.of("power8", "power9", "power10", "power11");
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-powerpc64le-space.yaml")).all()) {
            for (long seed = 0; seed < 300; seed++) {
                Testbed d = t.drawn(seed);
                String mcpu = d.flags().stream().filter(f -> f.startsWith("-mcpu=")).findFirst().orElseThrow().substring(6);
                assertTrue(power.indexOf(d.run().get(2)) >= power.indexOf(mcpu) && power.contains(mcpu), d.flags() + " run on " + d.run());
            }
        }
        // LoongArch: code for LoongArch v1.1 runs on qemu's max only, other code on la464 or max.
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-loongarch64-space.yaml")).all()) {
            for (long seed = 0; seed < 300; seed++) {
                Testbed d = t.drawn(seed);
                String model = d.run().get(2);
                boolean v11 = d.flags().contains("-march=la664") || d.flags().contains("-march=la64v1.1");
                assertTrue(v11 ? model.equals("max") : List.of("la464", "max").contains(model), d.flags() + " run on " + d.run());
            }
        }
        for (Testbed t : Testbeds.load(Path.of("harness/testbeds-s390x-space.yaml")).all()) assertEquals(List.of("qemu-s390x", "-cpu", "max"), t.run());
    }

    @Test
    void theShippedSpacesCoverWhatTheirTargetsAreTunedBy() {
        String x86 = String.join(" ", labels(Testbeds.load(Path.of("harness/testbeds.yaml"))));
        for (String o : List.of("-O2", "-O3", "-march=x86-64-v2", "-march=x86-64-v3", "-march=x86-64-v4", "-march=native", "-flto",
                "-fno-vect-cost-model", "--param=vect-partial-vector-usage=2", "-mprefer-vector-width=512", "-mllvm -force-vector-width=4",
                "-mllvm -force-vector-interleave=4", "-mllvm -vectorizer-maximize-bandwidth", "-mllvm -epilogue-vectorization-force-VF=2")) {
            assertTrue(x86.contains(o), o);
        }
        // Floating point that never rounds (floats: p_float) is tested under fast-math on every shipped vector target.
        for (String file : List.of("testbeds.yaml", "testbeds-riscv64-rvv-space.yaml", "testbeds-aarch64-sve-space.yaml")) {
            String all = String.join(" ", labels(Testbeds.load(Path.of("harness", file))));
            for (String o : List.of("-ffast-math", "-ffp-contract=fast", "-ffp-model=fast", "-fassociative-math")) assertTrue(all.contains(o), file + ": " + o);
        }
        String rvv = String.join(" ", labels(Testbeds.load(Path.of("harness/testbeds-riscv64-rvv-space.yaml"))));
        for (String o : List.of("-march=rv64gcv_zvl256b", "-march=rv64gcv_zvl512b", "-march=rv64gcv_zvl1024b", "-mrvv-vector-bits=zvl",
                "-mrvv-max-lmul=dynamic", "-mrvv-max-lmul=m1", "-mrvv-max-lmul=m2", "-mrvv-max-lmul=m4", "-mrvv-max-lmul=m8",
                "-mtune=generic-ooo", "-flto", "-fno-vect-cost-model", "-mllvm -force-tail-folding-style=data-with-evl", "_zvfh")) {
            assertTrue(rvv.contains(o), o);
        }
        String sve = String.join(" ", labels(Testbeds.load(Path.of("harness/testbeds-aarch64-sve-space.yaml"))));
        for (int b : List.of(128, 256, 512, 1024, 2048)) assertTrue(sve.contains("-msve-vector-bits=" + b), "fixed at " + b);
        for (String o : List.of("-march=armv8-a", "-march=armv9-a+sve2", "-fno-vect-cost-model", "-flto")) assertTrue(sve.contains(o), o);
        Map<String, List<String>> others = Map.of(
                "powerpc64le", List.of("-mcpu=power9", "-mcpu=power10", "-mno-vsx", "--param=vect-partial-vector-usage=2"),
                "s390x", List.of("-march=z14", "-march=z15", "-march=z16", "-mno-vx", "--param=vect-partial-vector-usage=2"),
                "loongarch64", List.of("-march=la464", "-march=la664", "-mlsx -mno-lasx", "-mlasx", "-mno-lsx"));
        others.forEach((target, options) -> {
            String all = String.join(" ", labels(Testbeds.load(Path.of("harness/testbeds-" + target + "-space.yaml"))));
            for (String o : List.of("-O3", "-fno-vect-cost-model", "-funroll-loops", "-flto", "-mllvm -force-vector-width=4")) assertTrue(all.contains(o), target + " " + o);
            for (String o : options) assertTrue(all.contains(o), target + " " + o);
        });
    }

    private static List<String> labels(Testbeds tbs) {
        List<String> all = new ArrayList<>();
        for (Testbed t : tbs.all()) {
            if (t.space() == null) continue;
            for (ConfigSpace.Axis a : t.space().axes()) for (ConfigSpace.Alternative x : a.alternatives()) all.add(x.label());
        }
        return all;
    }

    @Test
    void aSpaceThatCannotWorkIsRefusedWithOneLine() {
        String head = "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: s\n    c: gcc\n";
        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put(head + "    run: [qemu-riscv64, -cpu, \"rv64,vlen={vlen}\"]\n    axes:\n      v: [-march=rv64gcv, {flags: -march=rv64gcv_zvl256b, vlen: 256}]\n",
                "testbeds[0].axes: the run command uses {vlen}, which no axis binds in every alternative");
        bad.put(head + "    axes:\n      v: [{flags: -O2, vlen: 256}]\n", "testbeds[0].axes.v: '-O2' binds vlen, which the run command does not use");
        bad.put(head + "    axes:\n      v: [{flags: -O2, weight: 0}]\n", "testbeds[0].axes.v: weight must be a positive number, not '0'");
        bad.put(head + "    axes:\n      v: []\n", "testbeds[0].axes.v must be a non-empty list of alternatives");
        bad.put(head + "    axes:\n      v: [-O2, -O2]\n", "testbeds[0].axes.v: alternative '-O2' is given twice");
        bad.put(head + "    run: [qemu-riscv64, \"vlen={vlen}\"]\n", "testbeds[0]: its run command uses {vlen}, which only the axes of a configuration space can set");
        bad.put("reference: {c: gcc, cpp: g++, ispc: ispc}\ntestbeds:\n  - name: s\n    ispc: ispc\n    axes:\n      t: [--target=sse4-i32x4]\n",
                "testbeds[0]: axes are for C and C++ compilers, not ispc or a SYCL compiler");
        bad.forEach((yaml, message) -> {
            Testbeds.TestbedException e = assertThrows(Testbeds.TestbedException.class, () -> load(yaml));
            assertEquals(dir.resolve("testbeds.yaml") + ": " + message, e.getMessage());
        });
    }

    @Test
    void anOptionTheCompilerRefusesOrThisCpuCannotRunIsDroppedFromItsAxisWithOneLine() throws Exception {
        Testbeds tbs = load("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: s\n    c: gcc\n    axes:\n"
                + "      opt: [-O1, -fno-such-option-of-yarpj, -O2]\n"
                + "      march: [\"\", {flags: -mavx2, cpu: [no_such_cpu_feature]}]\n"
                + "  - name: all-refused\n    c: gcc\n    axes:\n      opt: [-fno-such-option-of-yarpj]\n");
        List<String> warnings = new ArrayList<>();
        List<Testbed> ok = Testbeds.acceptingTheirFlags(tbs.usable(Language.C, warnings::add), Language.C, warnings::add);
        assertEquals(1, ok.size());
        assertEquals(List.of("-O1", "-O2"), ok.get(0).space().axes().get(0).alternatives().stream().map(ConfigSpace.Alternative::label).toList());
        assertEquals(List.of(ConfigSpace.NONE), ok.get(0).space().axes().get(1).alternatives().stream().map(ConfigSpace.Alternative::label).toList());
        assertEquals(4, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("testbed s: '-fno-such-option-of-yarpj' dropped from axis opt: gcc -fno-such-option-of-yarpj -w -c"), warnings.get(0));
        assertEquals("testbed s: '-mavx2' dropped from axis march: this CPU lacks no_such_cpu_feature", warnings.get(1));
        assertEquals("testbed all-refused skipped: its compiler refuses every alternative of axis opt", warnings.get(3));
        assertTrue(warnings.stream().noneMatch(w -> w.contains("\n")));
    }

    @Test
    void aConfigurationWithLtoLinksWithItsOwnCompilerAndFlags() throws Exception {
        Testbed t = load("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: s\n    c: clang\n    cpp: clang++\n    axes:\n      lto: [-flto]\n"
                + "  - name: plain\n    c: clang\n    flags: [-O2]\n").all().get(0).drawn(1);
        assertEquals(List.of("clang++", "-flto"), t.linker(Language.CPP, "g++"));
        assertEquals(List.of("clang", "-flto", "driver.o", "func.o", "-o", "test", "-lm"), t.linkCommand(Language.C, "gcc", "func.o", "test"));
        Testbed plain = load("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: plain\n    c: clang\n    flags: [-O2]\n").all().get(0);
        assertEquals(List.of("gcc"), plain.linker(Language.C, "gcc"));
        assertNotEquals(plain, plain.drawn(1).named("other"));
        assertEquals(plain, plain.drawn(1), "a testbed without a space is its own draw");
    }
}
