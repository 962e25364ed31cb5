// The sheet builder's cost (docs/testing.md#benchmarks): a whole build — weld, checks, rows, pins, geodesic,
// colouring, permutation, and the codec's encode — of an n x n grid sheet hung from its top edge,
// exported as two primitives that share their middle column (so the weld has work across
// primitives, as a real garment gives it). Targets: 64 x 64 well under 1 ms (the reference
// JavaScript implementation's colouring alone took 3.5 ms), 256 x 256 under 60 ms with a peak heap under 64 MiB,
// cost linear in the particle count. Stage benchmarks at 256 x 256 say where the time goes.
//
// Memory: every operator new in this program is counted (glibc's malloc_usable_size), so
// `peak_heap_MiB` is the most heap one build held at once, above what the scene already held.
// `user_ms`, `sys_ms` and `page_faults` are per build. To see a batch process that keeps its heap
// (no trimming back to the kernel between builds), run with
//   MALLOC_TRIM_THRESHOLD_=4000000000 MALLOC_MMAP_THRESHOLD_=4000000000 MALLOC_TOP_PAD_=268435456
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "geom/topology.h"
#include "geom/weld.h"
#include "graph/geodesic.h"
#include "proxy/colour_permute.h"
#include "proxy/core/codec.h"
#include "proxy/sheet_builder.h"
#include "scene/scene.h"

namespace {

std::atomic<size_t> g_heap_now{0}, g_heap_peak{0}, g_allocations{0};

void count_allocation(void* p) {
    if (!p) return;
    const size_t now = g_heap_now.fetch_add(malloc_usable_size(p)) + malloc_usable_size(p);
    size_t peak = g_heap_peak.load();
    while (now > peak && !g_heap_peak.compare_exchange_weak(peak, now)) {}
    g_allocations.fetch_add(1);
}

}  // namespace

// GCC 12 inlines these replacements into library code and then flags their malloc/free pairing as a
// new/delete mismatch; the pairing is this file's own and consistent.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(size_t size) {
    void* p = std::malloc(size ? size : 1);
    if (!p) throw std::bad_alloc();
    count_allocation(p);
    return p;
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept {
    if (!p) return;
    g_heap_now.fetch_sub(malloc_usable_size(p));
    std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }

namespace weft {
namespace {

// An n x n grid, 2 cm apart in XY, as two meshes (columns 0..n/2 and n/2..n-1) on one node.
Scene grid_scene(uint32_t n) {
    Scene s;
    s.source_path = "bench_grid.glb";
    s.materials = {"Cloth"};
    Node root;
    root.name = "Root";
    root.children = {1};
    Node node;
    node.name = "Sheet";
    node.parent = 0;
    node.meshes = {0, 1};
    s.nodes = {root, node};
    const uint32_t half = n / 2;
    for (uint32_t part = 0; part < 2; ++part) {
        const uint32_t x0 = part == 0 ? 0 : half, x1 = part == 0 ? half : n - 1;
        const uint32_t w = x1 - x0 + 1;
        Mesh m;
        m.name = part == 0 ? "Left" : "Right";
        m.node = 1;
        m.node_name = "Sheet";
        m.material = 0;
        for (uint32_t y = 0; y < n; ++y)
            for (uint32_t x = x0; x <= x1; ++x) m.positions.push_back({x * 0.02, y * 0.02, 0});
        for (uint32_t y = 0; y + 1 < n; ++y)
            for (uint32_t x = 0; x + 1 < w; ++x) {
                uint32_t a = y * w + x, b = a + 1, c = a + w + 1, d = a + w;
                m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
            }
        s.meshes.push_back(std::move(m));
    }
    return s;
}

SheetGarment grid_garment() { return {"Sheet", "flag", {0, 1}, {}}; }

SheetOptions hung_from_top() {
    SheetOptions o = source_resolution_options();
    o.pin = PinRule::top;
    return o;
}

void BM_SheetBuild(benchmark::State& state) {
    const uint32_t n = static_cast<uint32_t>(state.range(0));
    const Scene scene = grid_scene(n);
    const SheetGarment garment = grid_garment();
    const SheetOptions options = hung_from_top();

    // One build outside the timing: its peak heap and allocation count.
    const size_t before = g_heap_now.load(), allocations_before = g_allocations.load();
    g_heap_peak.store(before);
    size_t bytes = 0;
    uint32_t colours = 0;
    {
        SheetBuildResult r = build_sheet(scene, garment, options);
        if (!r.proxy) {
            state.SkipWithError("the grid was refused");
            return;
        }
        bytes = encode_proxy(*r.proxy).size();
        colours = r.stats.colours;
    }
    const double peak_mib = double(g_heap_peak.load() - before) / (1 << 20);
    const double allocations = double(g_allocations.load() - allocations_before);

    rusage start{}, end{};
    getrusage(RUSAGE_SELF, &start);
    for (auto _ : state) {
        SheetBuildResult r = build_sheet(scene, garment, options);
        std::vector<uint8_t> file = encode_proxy(*r.proxy);
        benchmark::DoNotOptimize(file.data());
    }
    getrusage(RUSAGE_SELF, &end);
    // User and system CPU apart: on a virtual machine a page fault can cost tens of microseconds,
    // and freed memory that malloc hands back to the kernel faults again on the next build.
    auto ms = [](const timeval& a, const timeval& b) { return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_usec - a.tv_usec) * 1e-3; };
    const double builds = double(state.iterations());
    state.counters["user_ms"] = ms(start.ru_utime, end.ru_utime) / builds;
    state.counters["sys_ms"] = ms(start.ru_stime, end.ru_stime) / builds;
    state.counters["page_faults"] = double(end.ru_minflt - start.ru_minflt) / builds;
    const double particles = double(n) * n;
    state.SetComplexityN(static_cast<int64_t>(particles));
    state.counters["particles"] = particles;
    state.counters["colours"] = colours;
    state.counters["file_KiB"] = double(bytes) / 1024;
    state.counters["peak_heap_MiB"] = peak_mib;
    state.counters["allocs_per_build"] = allocations;
    state.counters["time_per_particle"] =
        benchmark::Counter(particles, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert,
                           benchmark::Counter::kIs1000);
    state.counters["process_peak_rss_MiB"] = double(end.ru_maxrss) / 1024;
}
BENCHMARK(BM_SheetBuild)->Arg(64)->Arg(128)->Arg(256)->Complexity(benchmark::oN)->Unit(benchmark::kMillisecond);

// A dense sheet coarsened by `automatic` (docs/proxy.md#resampling): the n x n grid at 2 cm,
// resampled to about 256 particles, and its render mesh bound to the result. The cost that matters
// where an artist's garment is a few thousand vertices and more.
void BM_SheetResample(benchmark::State& state) {
    const uint32_t n = static_cast<uint32_t>(state.range(0));
    const Scene scene = grid_scene(n);
    SheetOptions options = hung_from_top();
    options.resolution = SheetResolution::automatic;
    uint32_t particles = 0;
    double aspect = 0;
    for (auto _ : state) {
        SheetBuildResult r = build_sheet(scene, grid_garment(), options);
        if (!r.proxy) {
            state.SkipWithError("the grid was refused");
            return;
        }
        particles = static_cast<uint32_t>(r.proxy->particle_count());
        aspect = r.stats.worst_aspect;
        benchmark::DoNotOptimize(r.proxy->rest_position.data());
    }
    state.counters["vertices"] = double(n) * n;
    state.counters["particles"] = particles;
    state.counters["worst_aspect"] = aspect;
}
BENCHMARK(BM_SheetResample)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);

// ---- where the time goes, at 256 x 256 ------------------------------------------------------------

std::vector<Vec3> all_positions(const Scene& s) {
    std::vector<Vec3> p = s.meshes[0].positions;
    p.insert(p.end(), s.meshes[1].positions.begin(), s.meshes[1].positions.end());
    return p;
}

void BM_Stage_Weld(benchmark::State& state) {
    const std::vector<Vec3> p = all_positions(grid_scene(256));
    const double tolerance = weld_tolerance_for(p);
    for (auto _ : state) benchmark::DoNotOptimize(weld_positions(p, tolerance).first.data());
}
BENCHMARK(BM_Stage_Weld)->Unit(benchmark::kMillisecond);

void BM_Stage_EdgeTableAndWinding(benchmark::State& state) {
    const Scene s = grid_scene(256);
    const std::vector<Vec3> p = all_positions(s);
    const WeldResult w = weld_positions(p, weld_tolerance_for(p));
    std::vector<uint32_t> idx;
    const uint32_t offset = static_cast<uint32_t>(s.meshes[0].positions.size());
    for (uint32_t i : s.meshes[0].indices) idx.push_back(w.remap[i]);
    for (uint32_t i : s.meshes[1].indices) idx.push_back(w.remap[i + offset]);
    for (auto _ : state) {
        EdgeTable t = build_edge_table(idx, static_cast<uint32_t>(w.unique_count()));
        Orientation o = orient_triangles(idx, t);
        benchmark::DoNotOptimize(o.flip.data());
    }
}
BENCHMARK(BM_Stage_EdgeTableAndWinding)->Unit(benchmark::kMillisecond);

void BM_Stage_Geodesic(benchmark::State& state) {
    SheetBuildResult r = build_sheet(grid_scene(256), grid_garment(), hung_from_top());
    const ClothProxy& p = *r.proxy;
    std::vector<uint32_t> held;
    for (uint32_t i = 0; i < p.particle_count(); ++i)
        if (p.held(i)) held.push_back(i);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            geodesic_distance(static_cast<uint32_t>(p.particle_count()), p.edges, p.rest_length, held).distance.data());
}
BENCHMARK(BM_Stage_Geodesic)->Unit(benchmark::kMillisecond);

void BM_Stage_ColourAndPermute(benchmark::State& state) {
    SheetBuildResult r = build_sheet(grid_scene(256), grid_garment(), hung_from_top());
    for (auto _ : state) {
        state.PauseTiming();
        ClothProxy p = *r.proxy;
        state.ResumeTiming();
        ColourResult c = colour_and_permute(p);
        benchmark::DoNotOptimize(c.new_of_old.data());
    }
}
BENCHMARK(BM_Stage_ColourAndPermute)->Unit(benchmark::kMillisecond);

void BM_Stage_Encode(benchmark::State& state) {
    SheetBuildResult r = build_sheet(grid_scene(256), grid_garment(), hung_from_top());
    for (auto _ : state) benchmark::DoNotOptimize(encode_proxy(*r.proxy).data());
}
BENCHMARK(BM_Stage_Encode)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace weft

BENCHMARK_MAIN();
