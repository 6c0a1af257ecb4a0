package dev.yarpj.ir;

/** Library calls a vectorizer accepts: std::min / std::max in C++, their C idiom in C. */
public enum Builtin { MIN, MAX }
