package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.yarpj.harness.Testbeds;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IR phase of reduction on SYCL and ISPC findings planted by fake compilers, as
 * {@link IrReducerTest} does for C and C++: through each language's lowering, its planner and
 * its files, down to a few statements the fake still miscompiles. A class of its own so that
 * the two longest reductions run beside the others, in the other test JVM.
 */
class IrReducerSyclIspcTest {
    @Test
    void plantedWrongCodeInSyclIsReducedInTheIrToAFewStatements(@TempDir Path dir) throws Exception {
        // A fake SYCL compiler that builds the C++ lowering beside func.cpp with one added to test()'s constants:
        // the finding, its replay and the reducer go through the SYCL lowering, its kernel planner and its files.
        Path finding = IrReducerTest.reducesToAFewStatements(dir, "sycl", "reference: {c: gcc, cpp: g++}\ntestbeds:\n"
                + "  - {name: sycl-ref-O0, sycl-cpp: g++, flags: [-O0]}\n"
                + "  - {name: wrong-O2, sycl: " + IrReducerTest.SYCL_FAKES.resolve("miscompile-sycl.sh") + ", flags: [-O2, --acpp-targets=omp]}\n");
        String json = Files.readString(finding.resolve("reduced/ir/ir-reduce.json"));
        assertTrue(json.contains("\"symptom\": \"not run: " + IrReducerTest.SYCL_FAKES.resolve("miscompile-sycl.sh") + " builds sycl only\""), json);
        assertTrue(Files.readString(finding.resolve("reduced/ir/func.cpp")).contains("sycl::"));
    }

    @Test
    void plantedWrongCodeInIspcIsReducedInTheIrToAFewStatements(@TempDir Path dir) throws Exception {
        assumeTrue(Testbeds.onPath("ispc"), "ispc is not on PATH (scripts/install-ispc.sh installs it)");
        Path finding = IrReducerTest.reducesToAFewStatements(dir, "ispc", "reference: {c: gcc, cpp: g++, ispc: ispc}\ntestbeds:\n"
                + "  - {name: ispc-O0, ispc: ispc, flags: [-O0, --target=sse4-i32x4]}\n"
                + "  - {name: fake, ispc: " + IrReducerTest.ISPC_FAKES.resolve("miscompile-ispc.sh") + ", flags: [-O2, --target=sse4-i32x4]}\n");
        // Triage then works on the reduced test: the fake miscompiles at every level and target.
        assertEquals(0, IrReducerTest.cli("triage", finding.toString()));
        String json = Files.readString(finding.resolve("triage").resolve("triage.json"));
        assertTrue(json.contains("\"lowest_level\": \"-O0\"") && json.contains("\"family\": \"ispc\""), json);
        assertTrue(json.contains("sse4-i32x4") && json.contains("\"targets_right\": []"), json);
        assertEquals(Files.readString(finding.resolve("reduced/ir/func.ispc")), Files.readString(finding.resolve("triage/func.ispc")));
        // ispc compiles ISPC only: the program in the other languages is printed, not run.
        String json2 = Files.readString(finding.resolve("reduced/ir/ir-reduce.json"));
        assertTrue(json2.contains("\"symptom\": \"not run: " + IrReducerTest.ISPC_FAKES.resolve("miscompile-ispc.sh") + " builds ispc only\""), json2);
    }

}
