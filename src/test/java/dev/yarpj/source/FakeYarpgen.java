package dev.yarpj.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fake YARPGen v2 for tests: a shell script with the real one's interface ({@code --version},
 * {@code --std=c|c++}, {@code -s SEED}, {@code -o DIR}, which must exist) that writes its three
 * files as the real one does: {@code init.h} (extern declarations, no guard), {@code func.EXT}
 * (a header comment with {@code Seed:} and {@code Invocation:}, {@code #include "init.h"}, and
 * {@code test()}) and {@code driver.EXT} (the globals, {@code init()}, {@code checksum()} and a
 * {@code main} that prints the checksum). Its program is a few lines, so a campaign of it costs
 * builds of milliseconds, and the seed chooses what it does:
 * <ul>
 *   <li>seed 13: writes nothing and exits 3 with an error on its standard error;
 *   <li>seed 14: exits 0 but writes no driver;
 *   <li>otherwise by {@code seed % 4}: 0 a clean program; 1 one that clang miscompiles when it
 *       optimizes ({@link #PLANTED}: {@code #if defined(__clang__) && defined(__OPTIMIZE__)});
 *       2 one that prints one thing built by gcc and another built by clang at every level
 *       ({@code #ifdef __clang__}), so the references disagree; 3 one with a signed overflow that
 *       UBSan reports, and that prints otherwise when optimized ({@code #ifdef __OPTIMIZE__}).
 * </ul>
 */
public final class FakeYarpgen {
    private FakeYarpgen() {}

    /** What seed % 4 makes. */
    public static final int CLEAN = 0, PLANTED = 1, DISAGREE = 2, UNDEFINED = 3;
    /** The seed it fails on, and the seed it writes no driver for. */
    public static final long FAILS = 13, NO_DRIVER = 14;
    /** The first line its {@code --version} prints. */
    public static final String VERSION = "yarpgen version 2.0 (fake, for yarpj's tests)";

    private static final String SCRIPT = """
            #!/bin/sh
            # A fake YARPGen v2 written by yarpj's tests (dev.yarpj.source.FakeYarpgen says what each seed does).
            std=c; seed=0; out=
            while [ $# -gt 0 ]; do
              case "$1" in
                --version) echo "%s"; exit 0 ;;
                --std=*) std=${1#--std=} ;;
                -s) seed=$2; shift ;;
                -o) out=$2; shift ;;
                *) echo "ERROR: unknown option $1" >&2; exit 2 ;;
              esac
              shift
            done
            case $std in c) ext=c ;; c++) ext=cpp ;; *) echo "ERROR: bad --std=$std" >&2; exit 2 ;; esac
            [ -d "$out" ] || { echo "ERROR: no output directory '$out'" >&2; exit 2; }
            [ "$seed" = 0 ] && seed=4
            [ "$seed" = 13 ] && { echo "ERROR: fake yarpgen cannot write seed 13" >&2; echo "a second line" >&2; exit 3; }
            echo "/*SEED $seed*/"
            case $((seed %% 4)) in
              0) planted="" ;;
              1) planted="#if defined(__clang__) && defined(__OPTIMIZE__)
                res_0 ^= 1u;
            #endif" ;;
              2) planted="#ifdef __clang__
                res_0 += 2u;
            #endif" ;;
              3) planted="    res_1 = b + 2147483647;
            #ifdef __OPTIMIZE__
                res_0 ^= 4u;
            #endif" ;;
            esac
            cat > "$out/init.h" <<EOF
            extern int var_0;
            extern int var_1;
            extern unsigned int res_0;
            extern int res_1;
            EOF
            cat > "$out/func.$ext" <<EOF
            /*
            %s
            Seed: $seed
            Invocation: $0 --std=$std -s $seed -o $out
            */
            #include "init.h"
            void test(int a, int b) {
                res_0 = (unsigned int)a * 2654435761u + (unsigned int)b;
            $planted
            }
            EOF
            [ "$seed" = 14 ] && exit 0
            cat > "$out/driver.$ext" <<EOF
            #include <stdio.h>

            unsigned long long int seed = 0;
            void hash(unsigned long long int *seed, unsigned long long int const v) {
                *seed ^= v + 0x9e3779b9 + ((*seed)<<6) + ((*seed)>>2);
            }

            int var_0 = $seed;
            int var_1 = 12345;
            unsigned int res_0 = 0;
            int res_1 = 0;

            void init() {
                var_1 = var_1 + var_0;
            }

            void checksum() {
                hash(&seed, res_0);
                hash(&seed, (unsigned int)res_1);
            }
            void test(int a, int b);

            int main() {
                init();
                test(var_0, var_1);
                checksum();
                printf("%%llu\\n", seed);
            }
            EOF
            """;

    /** Writes the fake as {@code dir/yarpgen}, executable; returns its path. */
    public static Path write(Path dir) throws IOException {
        Path p = dir.resolve("yarpgen");
        Files.writeString(p, SCRIPT.formatted(VERSION, VERSION));
        if (!p.toFile().setExecutable(true)) throw new IOException("cannot make " + p + " executable");
        return p;
    }
}
