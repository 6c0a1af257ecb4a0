// A gather from src[k - 1][0] in foreach: the offset of k - 1, scaled by the row size, is extended as unsigned when the gather is emulated.
export void test(uniform int32 dst[], uniform int32 (* uniform src)[22]) {
    foreach (k = 1 ... 5) {
        dst[k] = src[k - 1][0];
    }
}
