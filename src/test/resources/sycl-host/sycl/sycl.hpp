// A sequential host implementation of the part of SYCL 2020 that yarpj's SYCL lowering uses
// and nothing else, so that the tests build and run every emitted func.cpp with g++
// or clang++ where no SYCL compiler is installed (none is packaged for Debian). It checks the
// lowering, not a SYCL compiler: each kernel runs on the host, work-item after work-item in
// order, which is one schedule a SYCL implementation may choose.
//
// With YARPJ_SYCL_HOST_TRACE set, every parallel_for prints its kernel's name and global
// range to stderr.
//
// It is stricter than a device where that finds lowering bugs: an accessor subscript out of
// its buffer's range, an nd_range whose global size is not a multiple of its work-group size,
// a write through a read accessor (a compile error, as in SYCL) and device memory read before
// it is written (malloc_device fills it with 0xA5 bytes) all fail the test.
#pragma once
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

namespace sycl {
enum class access_mode { read, write, read_write };

namespace detail {
[[noreturn]] inline void fail(const char *what, std::size_t a, std::size_t b) {
    std::fprintf(stderr, "sycl-host: %s (%zu, %zu)\n", what, a, b);
    std::abort();
}
}

template <int D = 1> class range {
public:
    template <typename... Sizes> explicit range(Sizes... sizes) : s{static_cast<std::size_t>(sizes)...} {
        static_assert(sizeof...(Sizes) == D, "a range takes one size per dimension");
    }
    std::size_t operator[](int d) const { return s[d]; }
    std::size_t size() const {
        std::size_t n = 1;
        for (int d = 0; d < D; d++) n *= s[d];
        return n;
    }

private:
    std::array<std::size_t, D> s;
};

template <int D = 1> class id {
public:
    std::size_t operator[](int d) const { return v[d]; }
    std::array<std::size_t, D> v{};
};

template <int D = 1> class nd_range {
public:
    nd_range(range<D> global, range<D> local) : global(global), local(local) {
        for (int d = 0; d < D; d++)
            if (local[d] == 0 || global[d] % local[d] != 0) detail::fail("nd_range: global size not a multiple of the work-group size", global[d], local[d]);
    }
    range<D> global, local;
};

template <int D = 1> class nd_item {
public:
    std::size_t get_global_id(int d) const { return v[d]; }
    std::array<std::size_t, D> v{};
};

class event {
public:
    event() {}
};

namespace property {
namespace queue {
struct in_order {};
}
}
class property_list {
public:
    template <typename... Properties> property_list(Properties...) {}
};

class handler;
class queue;

namespace detail {
// a[i][j]: each subscript of a multi-dimensional accessor yields the next dimension, checked
// against that dimension's size.
template <typename T, int D> struct rows {
    T *p;
    std::array<std::size_t, D> ext;
    rows<T, D - 1> operator[](std::size_t i) const {
        if (i >= ext[0]) fail("accessor subscript out of range", i, ext[0]);
        std::size_t stride = 1;
        std::array<std::size_t, D - 1> rest;
        for (int d = 1; d < D; d++) {
            stride *= ext[d];
            rest[d - 1] = ext[d];
        }
        return rows<T, D - 1>{p + i * stride, rest};
    }
};
template <typename T> struct rows<T, 1> {
    T *p;
    std::array<std::size_t, 1> ext;
    T &operator[](std::size_t i) const {
        if (i >= ext[0]) fail("accessor subscript out of range", i, ext[0]);
        return p[i];
    }
};

template <typename T, typename Op> struct reduction_desc {
    T *cell;
    Op op;
};

// One reducer for the whole range: the work-items run in order.
template <typename T, typename Op> struct reducer {
    Op op;
    T value{};
    bool any = false;
    void combine(const T &x) {
        value = any ? op(value, x) : x;
        any = true;
    }
};
}

template <typename T, int D, access_mode M>
class accessor : public detail::rows<std::conditional_t<M == access_mode::read, const T, T>, D> {
public:
    accessor(T *p, std::array<std::size_t, D> ext) : detail::rows<std::conditional_t<M == access_mode::read, const T, T>, D>{p, ext} {}
};

template <typename T, int D = 1> class buffer {
public:
    // The host's memory is the device's: a kernel writes where the buffer would write back.
    buffer(T *host, const range<D> &r) : host(host) {
        for (int d = 0; d < D; d++) ext[d] = r[d];
    }
    template <access_mode M> accessor<T, D, M> get_access(handler &) { return accessor<T, D, M>(host, ext); }
    T *host;
    std::array<std::size_t, D> ext;
};

class handler {
public:
    void depends_on(event) {}
    template <typename Name, typename Kernel> void single_task(const Kernel &k) { k(); }
    template <typename Name, int D, typename... Rest> void parallel_for(range<D> r, Rest &&...rest) {
        trace(__PRETTY_FUNCTION__, r);
        run<false>(r, std::forward_as_tuple(rest...), std::make_index_sequence<sizeof...(Rest) - 1>{});
    }
    template <typename Name, int D, typename... Rest> void parallel_for(nd_range<D> r, Rest &&...rest) {
        trace(__PRETTY_FUNCTION__, r.global);
        run<true>(r.global, std::forward_as_tuple(rest...), std::make_index_sequence<sizeof...(Rest) - 1>{});
    }

private:
    // The kernel's name is the Name of the function's signature: a kernel name is an incomplete type.
    template <int D> static void trace(const char *signature, range<D> r) {
        if (!std::getenv("YARPJ_SYCL_HOST_TRACE")) return;
        const char *name = std::strstr(signature, "Name = ");
        std::size_t length = name ? std::strcspn(name + 7, ";,]") : 0;
        std::fprintf(stderr, "parallel_for %.*s", (int) length, name ? name + 7 : "");
        for (int d = 0; d < D; d++) std::fprintf(stderr, "%s%zu", d == 0 ? " " : "x", r[d]);
        std::fprintf(stderr, "\n");
    }

    template <bool Nd, int D, typename Args, std::size_t... R> void run(range<D> r, Args args, std::index_sequence<R...>) {
        const auto &kernel = std::get<sizeof...(R)>(args);
        auto reducers = std::make_tuple(detail::reducer<std::remove_pointer_t<decltype(std::get<R>(args).cell)>,
                                                        decltype(std::get<R>(args).op)>{std::get<R>(args).op}...);
        std::array<std::size_t, D> at{};
        if (r.size() != 0) {
            for (;;) {
                if constexpr (Nd) {
                    nd_item<D> it;
                    it.v = at;
                    kernel(it, std::get<R>(reducers)...);
                } else {
                    id<D> it;
                    it.v = at;
                    kernel(it, std::get<R>(reducers)...);
                }
                int d = D - 1;
                while (d >= 0 && ++at[d] == r[d]) at[d--] = 0;
                if (d < 0) break;
            }
        }
        // Each reduction combines with what its variable held before the kernel.
        ((std::get<R>(reducers).any ? (void) (*std::get<R>(args).cell = std::get<R>(args).op(*std::get<R>(args).cell, std::get<R>(reducers).value))
                                    : (void) 0),
         ...);
    }
};

class queue {
public:
    queue() {}
    queue(const property_list &) {}
    template <typename CommandGroup> event submit(CommandGroup cg) {
        handler h;
        cg(h);
        return event();
    }
    event memcpy(void *dst, const void *src, std::size_t bytes) {
        std::memcpy(dst, src, bytes);
        return event();
    }
    void wait() {}
};

template <typename T> T *malloc_shared(std::size_t count, const queue &) {
    return static_cast<T *>(std::calloc(count == 0 ? 1 : count, sizeof(T)));
}
template <typename T> T *malloc_device(std::size_t count, const queue &) {
    void *p = std::malloc((count == 0 ? 1 : count) * sizeof(T));
    std::memset(p, 0xA5, (count == 0 ? 1 : count) * sizeof(T));
    return static_cast<T *>(p);
}
inline void free(void *p, const queue &) { std::free(p); }

template <typename T = void> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <typename T = void> struct minimum { T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <typename T = void> struct maximum { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <typename T = void> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <typename T = void> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <typename T = void> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

template <typename T, typename Op> detail::reduction_desc<T, Op> reduction(T *cell, Op combiner) { return {cell, combiner}; }
template <typename T, typename Op> detail::reduction_desc<T, Op> reduction(buffer<T, 1> cell, handler &, Op combiner) {
    return {cell.host, combiner};
}

template <typename T> T min(T a, T b) { return b < a ? b : a; }
template <typename T> T max(T a, T b) { return a < b ? b : a; }

inline float fmin(float a, float b) { return std::fmin(a, b); }
inline double fmin(double a, double b) { return std::fmin(a, b); }
inline float fmax(float a, float b) { return std::fmax(a, b); }
inline double fmax(double a, double b) { return std::fmax(a, b); }
inline float fma(float a, float b, float c) { return std::fma(a, b, c); }
inline double fma(double a, double b, double c) { return std::fma(a, b, c); }
inline float sqrt(float a) { return std::sqrt(a); }
inline double sqrt(double a) { return std::sqrt(a); }
inline float fabs(float a) { return std::fabs(a); }
inline double fabs(double a) { return std::fabs(a); }
}
