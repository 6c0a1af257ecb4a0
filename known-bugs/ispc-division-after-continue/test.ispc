// Divides where the divisor is not zero, in the first n elements: with every lane off after the continue, the division is done anyway.
export void test(uniform int d[], uniform int out[], uniform int n) {
    foreach (k = 0 ... programCount) {
        if (k < n) {
            if (d[k] == 0) {
                continue;
            }
            out[k] = 7 / d[k];
        }
    }
}
