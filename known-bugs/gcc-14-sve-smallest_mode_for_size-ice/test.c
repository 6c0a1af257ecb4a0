extern unsigned int res;
extern int arr[132];
void test(void) {
    for (unsigned int i = 4; i < 68; i++)
        if (arr[i]) {
            res = 0;
            break;
        }
}
