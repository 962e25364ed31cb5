// The .clothproxy codec's cost: encode, decode (which includes every structural check) and
// check_proxy alone, on grid sheets of 64x64 and 256x256 particles (the sheet builder's reference sizes),
// and the CRC-32C's throughput. Run: build/tests/bench/bench_codec --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "proxy/codec_fixtures.h"
#include "proxy/core/codec.h"
#include "proxy/core/crc32c.h"
#include "proxy/core/proxy_check.h"

namespace {

const weft::ClothProxy& grid(int side) {
    static const weft::ClothProxy g64 = weft::test::grid_proxy(64, 64);
    static const weft::ClothProxy g256 = weft::test::grid_proxy(256, 256);
    return side == 64 ? g64 : g256;
}

void BM_Encode(benchmark::State& state) {
    const weft::ClothProxy& proxy = grid(static_cast<int>(state.range(0)));
    size_t bytes = 0;
    for (auto _ : state) {
        std::vector<uint8_t> b = weft::encode_proxy(proxy);
        bytes = b.size();
        benchmark::DoNotOptimize(b.data());
    }
    state.counters["file_bytes"] = static_cast<double>(bytes);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

void BM_Decode(benchmark::State& state) {
    const std::vector<uint8_t> bytes = weft::encode_proxy(grid(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        weft::DecodeResult r = weft::decode_proxy(bytes);
        if (!r.ok()) state.SkipWithError(r.error.c_str());
        benchmark::DoNotOptimize(r.proxy->rest_position.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

void BM_CheckProxy(benchmark::State& state) {
    const weft::ClothProxy& proxy = grid(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        weft::ProxyFault f = weft::find_proxy_fault(proxy);
        if (!f.ok()) state.SkipWithError(f.message.c_str());
        benchmark::DoNotOptimize(f.error);
    }
}

void BM_Crc32c(benchmark::State& state) {
    std::vector<uint8_t> buf(static_cast<size_t>(state.range(0)), 0x5A);
    const bool portable = state.range(1) != 0;
    for (auto _ : state) {
        uint32_t c = portable ? weft::crc32c_portable(buf) : weft::crc32c(buf);
        benchmark::DoNotOptimize(c);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * buf.size()));
}

BENCHMARK(BM_Encode)->Arg(64)->Arg(256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Decode)->Arg(64)->Arg(256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CheckProxy)->Arg(64)->Arg(256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Crc32c)->Args({1 << 20, 0})->Args({1 << 20, 1})->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
