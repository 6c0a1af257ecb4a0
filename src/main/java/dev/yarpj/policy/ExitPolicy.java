package dev.yarpj.policy;

import java.util.List;
import java.util.Map;

/**
 * The {@code exits:} section of a policy: loops that leave early ({@code flesh.EarlyExits}). An exit
 * is {@code if (s[i] == K) break;} (or {@code continue;}, or a search that stores the index
 * it found before it breaks), where {@code s} is an input array of the loop's own that holds
 * {@code K} at one element only: the generator plants it where the exit is to fire, so the
 * loop's trip count depends on data the compiler cannot see, yet the interpreter knows it.
 */
public record ExitPolicy(
        /* Chance that a loop nest gets an early exit in one of its levels. */
        double pExit,
        /* What the exit does: break, continue, find (store the index, then break), or search (a find that is the innermost loop's only statement). */
        Map<String, Integer> kindWeights,
        /* Where the sentinel is: at the first iteration, one in the middle, the last, or none (never fires). */
        Map<String, Integer> positionWeights,
        /* Chance that the exit is in the innermost level (else a level drawn evenly). */
        double pInnermost,
        /* Chance that the exit comes before the level's other statements (else after them; a continue always before). */
        double pBefore,
        /* The control-path oracle: every arm of every if (an exit's included) counts how often it ran into an output of its own. */
        boolean traceBranches,
        /* Chance that a serial loop level is spelt as a while loop, its update at the end of its body (never where a continue belongs to it). */
        double pWhile,
        /* Chance that a serial level that runs at least once on every entry is spelt as a do-while loop (drawn before p_while). */
        double pDoWhile,
        /* Chance that a while level whose first statement is an exit's bare break carries that test in its condition: while (i < n && s[i] != K). */
        double pHeaderExit,
        /* Chance that the test's last loop nest gets an early return from test() in one of its serial outer levels. */
        double pReturn) {
    public static final List<String> KIND_NAMES = List.of("break", "continue", "find", "search");
    public static final List<String> POSITION_NAMES = List.of("first", "middle", "last", "never");
}
