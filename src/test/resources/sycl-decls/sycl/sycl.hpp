// Declarations of the part of SYCL 2020 that yarpj's SYCL lowering uses, and nothing else:
// enough for `g++ -std=c++17 -fsyntax-only` to check every emitted func.cpp without a SYCL
// implementation. No behaviour: nothing here is ever linked or run. The templates that take
// a kernel or command-group lambda have empty bodies only because g++ rejects a template
// declared with a local (lambda) type that is never defined.
#pragma once
#include <cstddef>
#include <type_traits>

namespace sycl {
enum class access_mode { read, write, read_write };

template <int D = 1> class range {
public:
    template <typename... Sizes> explicit range(Sizes... sizes);
};
template <int D = 1> class id {
public:
    std::size_t operator[](int dimension) const;
};
template <int D = 1> class nd_range {
public:
    nd_range(range<D> global, range<D> local);
};
template <int D = 1> class nd_item {
public:
    std::size_t get_global_id(int dimension) const;
};

class event {
public:
    event();
};

namespace property {
namespace queue {
struct in_order {};
}
}
class property_list {
public:
    template <typename... Properties> property_list(Properties... properties);
};

class handler;

namespace detail {
// a[i][j]: each subscript of a multi-dimensional accessor yields the next dimension.
template <typename T, int D> struct rows {
    rows<T, D - 1> operator[](std::size_t i) const;
};
template <typename T> struct rows<T, 1> {
    T &operator[](std::size_t i) const;
};
template <typename T, typename Op> struct reduction_desc {};
}

template <typename T, int D, access_mode M>
class accessor : public detail::rows<std::conditional_t<M == access_mode::read, const T, T>, D> {};

template <typename T, int D = 1> class buffer {
public:
    buffer(T *host, const range<D> &r);
    template <access_mode M> accessor<T, D, M> get_access(handler &h);
};

class handler {
public:
    void depends_on(event e);
    template <typename Name, typename Kernel> void single_task(const Kernel &) {}
    template <typename Name, int D, typename... Rest> void parallel_for(range<D>, Rest &&...) {}
    template <typename Name, int D, typename... Rest> void parallel_for(nd_range<D>, Rest &&...) {}
};

class queue {
public:
    queue();
    queue(const property_list &properties);
    template <typename CommandGroup> event submit(CommandGroup) { return event(); }
    event memcpy(void *dst, const void *src, std::size_t bytes);
    void wait();
};

template <typename T> T *malloc_shared(std::size_t count, const queue &q);
template <typename T> T *malloc_device(std::size_t count, const queue &q);
void free(void *p, const queue &q);

template <typename T = void> struct plus { T operator()(const T &a, const T &b) const; };
template <typename T = void> struct minimum { T operator()(const T &a, const T &b) const; };
template <typename T = void> struct maximum { T operator()(const T &a, const T &b) const; };
template <typename T = void> struct bit_and { T operator()(const T &a, const T &b) const; };
template <typename T = void> struct bit_or { T operator()(const T &a, const T &b) const; };
template <typename T = void> struct bit_xor { T operator()(const T &a, const T &b) const; };

template <typename T, typename Op> detail::reduction_desc<T, Op> reduction(T *cell, Op combiner);
template <typename T, typename Op> detail::reduction_desc<T, Op> reduction(buffer<T, 1> cell, handler &h, Op combiner);

template <typename T> T min(T a, T b);
template <typename T> T max(T a, T b);

// Math built-ins on float and double only (genfloat): an integer argument would not compile.
float fmin(float a, float b);
double fmin(double a, double b);
float fmax(float a, float b);
double fmax(double a, double b);
float fma(float a, float b, float c);
double fma(double a, double b, double c);
float sqrt(float a);
double sqrt(double a);
float fabs(float a);
double fabs(double a);
}
