// The test data as the suites that bake the whole folder take it.
#pragma once
#include <filesystem>
#include <string>

namespace weft::test {

/// A copy of testdata/ in scratch_dir(test_name), every file but the dense sheet (sheets/dense.glb),
/// for the tests that bake the whole folder to check what a bake of it reports and writes. That
/// sheet's resampling (6,160 vertices) was most of such a bake's time under the sanitizers, and it
/// writes no kind of file and reports no issue code the other sheets don't; the resampler's tests
/// (SheetResample.*) and SheetTable.Dense build it.
std::filesystem::path testdata_without_dense_sheet(const std::string& test_name);

}  // namespace weft::test
