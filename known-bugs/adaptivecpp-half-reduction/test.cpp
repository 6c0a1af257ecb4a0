#include <sycl/sycl.hpp>
#include <cstdio>
int main() {
  sycl::queue q;
  sycl::half *s = sycl::malloc_shared<sycl::half>(1, q);
  *s = 0;
  q.parallel_for(sycl::range<1>(64), sycl::reduction(s, sycl::plus<sycl::half>()),
                 [=](sycl::id<1> i, auto &r) { r.combine(sycl::half(1)); }).wait();
  printf("%f\n", (float)*s);
}
```
