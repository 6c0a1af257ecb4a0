// A scatter to g[i][i] with a decreasing unsigned index: the step between gangs is extended as unsigned when the scatter is emulated.
uniform unsigned int32 g[60][61];
export uniform unsigned int32 test(uniform int64 s) {
    foreach (k = 0 ... 20) {
        varying unsigned int32 i = 59 - k * 3;   // 59, 56, ..., 2: always in bounds
        g[i][i] = 7;
    }
    return g[59][59] + g[2][2];
}
