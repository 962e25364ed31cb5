// The README's examples run as written (README.md, "Commands"): each row's `weft ...` command, in the
// table's order, from a folder laid out as the checkout (testdata/, examples/, the shared models beside
// it), exits 0 and leaves what the next one reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> readme_examples() {
    std::ifstream in(test::source_dir() / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const std::regex row(R"(\n\| `[a-z]+` \|[^\n]*\| `(weft [^`]+)` \|)");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), row); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1].str());
    return out;
}

TEST(Readme, EveryExampleRunsAndExitsZero) {
    if (!fs::is_directory(test::shared_models_dir())) GTEST_SKIP() << "no shared models";
    const std::vector<std::string> examples = readme_examples();
    ASSERT_EQ(examples.size(), 8u) << "the README's command table has one example per subcommand";
    // The checkout's layout: testdata/ and examples/ here, the shared models in a folder beside it.
    const fs::path root = test::scratch_dir("readme");
    const fs::path here = root / "checkout";
    fs::create_directories(here);
    fs::create_directories(root / "shared");
    fs::create_directory_symlink(test::testdata_dir(), here / "testdata");
    fs::create_directory_symlink(test::source_dir() / "examples", here / "examples");
    fs::create_directory_symlink(test::shared_models_dir(), root / "shared" / "models");
    // The first example bakes testdata/*.glb with --validate and the first run's config, as ctest main_job
    // (a fixture of this test: tests/gtest_ctests.cmake) bakes them and the .fbx beside them. Its outputs
    // are the example's starting point: the bake finds each model's stamp matching (the input, config,
    // options and weft: docs/commands.md) and keeps it, so the models are not validated a second time;
    // a changed flag or config in the example bakes afresh. Without that bake (this suite run outside
    // ctest) the example bakes everything itself.
    const fs::path main_job = test::binary_dir() / "test-scratch" / "main_job";
    if (fs::exists(main_job / "bake-report.json")) fs::copy(main_job, here / "out", fs::copy_options::recursive);
    const std::string path = test::weft_exe().parent_path().string() + ":" + std::getenv("PATH");
    for (const std::string& example : examples) {
        const test::CommandResult r =
            test::run_command({"/bin/sh", "-c", "cd '" + here.string() + "' && PATH='" + path + "' " + example + " >/dev/null"});
        EXPECT_EQ(r.exit_code, 0) << example << "\n" << r.err;
    }
}

}  // namespace
}  // namespace weft
