#include "testdata_copy.h"

#include <gtest/gtest.h>

#include "support/paths.h"

namespace weft::test {

namespace fs = std::filesystem;

fs::path testdata_without_dense_sheet(const std::string& test_name) {
    const fs::path p = scratch_dir(test_name);
    fs::copy(testdata_dir(), p, fs::copy_options::recursive);
    if (!fs::remove(p / "sheets" / "dense.glb")) ADD_FAILURE() << "testdata/sheets/dense.glb is gone: update " << __func__;
    return p;
}

}  // namespace weft::test
