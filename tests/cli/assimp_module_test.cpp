// The Assimp module (lib/scene/assimp_module.h): `weft bake`'s driver never maps libassimp, only a
// worker handed a model Assimp reads loads it; without the module that model fails with
// IMPORTER_MISSING naming the module and the model, and the rest of the batch is baked. Which
// process loaded what is read from the dynamic loader's own record (LD_DEBUG=files writes every
// object a process and its forks map, each line headed by the pid that mapped it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "support/json_files.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// flag.glb (read by weft) and truncated_binary.fbx (read by Assimp, which refuses it: the smallest
/// file that makes a worker load the module) in a folder of their own.
fs::path mixed_folder(const std::string& name) {
    const fs::path in = test::scratch_dir(name) / "in";
    fs::create_directories(in);
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "flag.glb");
    fs::copy_file(test::testdata_dir() / "bad" / "truncated_binary.fbx", in / "truncated_binary.fbx");
    return in;
}

/// The lines of the loader's record, by the pid that wrote them.
std::map<long, std::string> loader_record(const fs::path& prefix) {
    std::map<long, std::string> by_pid;
    for (const auto& entry : fs::directory_iterator(prefix.parent_path())) {
        if (entry.path().filename().string().rfind(prefix.filename().string() + ".", 0) != 0) continue;
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            long pid = 0;
            char colon = 0;
            if (fields >> pid >> colon && colon == ':') by_pid[pid] += line + "\n";
        }
    }
    return by_pid;
}

TEST(AssimpModule, TheDriverNeverMapsAssimpOnlyTheWorkerOfAnFbxLoadsIt) {
    const fs::path in = mixed_folder("assimp-module-maps");
    const fs::path out = in.parent_path() / "out", record = in.parent_path() / "ld" / "files";
    fs::create_directories(record.parent_path());
    ::setenv("LD_DEBUG", "files", 1);
    ::setenv("LD_DEBUG_OUTPUT", record.c_str(), 1);
    const test::CommandResult r = test::run_weft({"bake", in.string(), "-o", out.string(), "-j", "2", "-q"});
    ::unsetenv("LD_DEBUG");
    ::unsetenv("LD_DEBUG_OUTPUT");
    EXPECT_EQ(r.exit_code, 1) << r.err;  // the refused FBX
    const json report = test::read_json_file(out / "bake-report.json");
    const json* flag = test::bake_report_model(report, "flag.glb");
    const json* fbx = test::bake_report_model(report, "truncated_binary.fbx");
    ASSERT_TRUE(flag && fbx) << report.dump(1);
    EXPECT_EQ((*flag)["status"], "built");
    // Assimp read it: its reason is quoted, so the module was loaded and ran.
    EXPECT_NE((*fbx)["issues"].dump().find("IMPORT_FAILED"), std::string::npos) << fbx->dump(1);

    // The record file is named after the process that started it: weft's driver.
    const std::map<long, std::string> by_pid = loader_record(record);
    long driver = 0;
    for (const auto& entry : fs::directory_iterator(record.parent_path()))
        driver = std::stol(entry.path().extension().string().substr(1));
    ASSERT_TRUE(by_pid.count(driver)) << "no loader record for the driver " << driver;
    EXPECT_NE(by_pid.at(driver).find("libstdc++"), std::string::npos) << by_pid.at(driver);  // the record is complete
    EXPECT_EQ(by_pid.at(driver).find("libassimp"), std::string::npos) << by_pid.at(driver);
    EXPECT_EQ(by_pid.at(driver).find("weft-assimp.so"), std::string::npos) << by_pid.at(driver);
    size_t loaders = 0;
    for (const auto& [pid, lines] : by_pid)
        if (pid != driver && lines.find("weft-assimp.so") != std::string::npos) {
            ++loaders;
            EXPECT_NE(lines.find("libassimp.so"), std::string::npos) << lines;
        }
    EXPECT_EQ(loaders, 1u) << "one worker, the FBX's, loads the module";
}

TEST(AssimpModule, WithoutTheModuleAnFbxFailsByNameAndTheBatchGoesOn) {
    const fs::path in = mixed_folder("assimp-module-missing");
    const fs::path out = in.parent_path() / "out", missing = in.parent_path() / "nowhere" / "weft-assimp.so";
    ::setenv("WEFT_ASSIMP_MODULE", missing.c_str(), 1);
    const test::CommandResult r = test::run_weft({"bake", in.string(), "-o", out.string(), "-j", "1", "-q"});
    ::unsetenv("WEFT_ASSIMP_MODULE");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    const json* flag = test::bake_report_model(report, "flag.glb");
    const json* fbx = test::bake_report_model(report, "truncated_binary.fbx");
    ASSERT_TRUE(flag && fbx) << report.dump(1);
    EXPECT_EQ((*flag)["status"], "built");
    EXPECT_NE((*fbx)["status"], "built");
    std::string message;
    for (const json& issue : (*fbx)["issues"])
        if (issue["code"] == "IMPORTER_MISSING") message = issue["message"];
    EXPECT_NE(message.find("truncated_binary.fbx"), std::string::npos) << fbx->dump(1);
    EXPECT_NE(message.find(missing.string()), std::string::npos) << message;
    EXPECT_NE(message.find("no such file"), std::string::npos) << message;
    EXPECT_NE(r.err.find("IMPORTER_MISSING"), std::string::npos) << r.err;  // -q still prints the failed model's error
}

TEST(AssimpModule, AFileThatIsNotTheModuleIsRefusedByName) {
    const fs::path in = mixed_folder("assimp-module-wrong");
    const fs::path out = in.parent_path() / "out";
    // A shared object without the module's entry points: loads, and is refused.
    ::setenv("WEFT_ASSIMP_MODULE", "/lib/x86_64-linux-gnu/libz.so.1", 1);
    const test::CommandResult r = test::run_weft({"inspect", (in / "truncated_binary.fbx").string()});
    ::unsetenv("WEFT_ASSIMP_MODULE");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE((r.out + r.err).find("IMPORTER_MISSING"), std::string::npos) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("not weft's Assimp module"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace weft
