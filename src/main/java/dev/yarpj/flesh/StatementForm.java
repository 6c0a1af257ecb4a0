package dev.yarpj.flesh;

import dev.yarpj.ir.Stmt;

/**
 * How one kind of skeleton slot ({@link dev.yarpj.skeleton.Shape.SlotKind}) is fleshed into
 * a statement: a plain assignment, or an idiom a loop optimizer looks for. A form draws its
 * odds from its own policy keys and keeps what it builds UB-free by its own reasoning (with
 * {@link UbGuard} and {@link dev.yarpj.ir.Arith} for the rules of the language); when its
 * idiom does not fit where it stands, it falls back to {@link Fleshing#assign}.
 * {@link StatementForms} says which form fleshes which kind.
 */
@FunctionalInterface
interface StatementForm {
    /** The statement for a slot in {@code env}. */
    Stmt flesh(Env env);
}
