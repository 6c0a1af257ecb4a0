package dev.yarpj.policy;

/**
 * The {@code switches:} section of a policy: {@code switch} statements ({@code flesh.SwitchStatement},
 * statement kind {@code switch} in {@code stmt_weights}). The selector is an expression whose
 * value the generator knows, so the labels are chosen around it: some cases run, others are
 * dead code the compiler cannot prove dead. Dense labels are what switch conversion turns into
 * a jump or lookup table (and GCC's if-conversion and LLVM's vectorizer into selects); sparse
 * ones into a tree of compares or bit tests. A state machine, a switch in a loop on a scalar
 * that its cases set to constants, is what DFA jump threading looks for.
 */
public record SwitchPolicy(
        /* At most this many cases (at least 1), the default aside. */
        int maxCases,
        /* At most this many labels on one case (case 1: case 2: { ... }). */
        int maxLabelsPerCase,
        /* At most this many statements in one case's body. */
        int maxCaseStmts,
        /* Chance that the labels are consecutive values (else spread apart). */
        double pDense,
        /* Chance that the selector is masked to a few low bits (e & 7), the labels then in its range. */
        double pMasked,
        /* Chance that a case falls through into the next (no break after it). */
        double pFallthrough,
        /* Chance that the switch has a default. */
        double pDefault,
        /* Chance that the selector's value in a context is one of the labels (else only the default runs there). */
        double pHit,
        /* Chance that a switch in a loop is a state machine: it switches on a scalar the loop carries, which each case sets to a constant. */
        double pStateMachine,
        /* Chance that an element-wise store of a vectorizable nest is a switch that stores the element in every case (the loop stays vectorizable). */
        double pElementwise) {}
