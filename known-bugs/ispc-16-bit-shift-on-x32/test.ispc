// 1 << n with a signed literal on the left is computed in the narrowest lane type of the target: 16 bits on -x32, 8 on -x64.
export uniform int32 shl(uniform int32 n) {
    return 1 << n;
}
