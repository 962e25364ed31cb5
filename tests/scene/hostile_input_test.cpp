// Hostile and careless inputs (docs/bad-inputs.md, "Reading a model"): every file the generator
// writes under testdata/hostile/ is refused with the code its purpose names, within seconds; the
// kinds git cannot store (FIFOs, sockets, directories, links, devices) and the inputs too large to
// commit are made here. No read may leave the model's folder unless the option allows it.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "scene/import.h"
#include "scene/import_codes.h"
#include "io/utf8_text.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;

std::string hostile_issues_text(const ImportResult& r) {
    std::string out;
    for (const Issue& i : r.issues) out += std::string(severity_name(i.severity)) + " " + i.code + ": " + i.message + "\n";
    return out;
}

bool hostile_has(const ImportResult& r, const std::string& code) {
    for (const Issue& i : r.issues)
        if (i.code == code) return true;
    return false;
}

void hostile_write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

/// CPU seconds this process has used: unlike wall time it does not grow when the machine is busy, so
/// the bound below catches a hang or a quadratic walk without failing on a loaded machine.
double hostile_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Imports `file` and checks it is refused with `code` within twenty CPU seconds (sanitizers included).
ImportResult expect_hostile(const fs::path& file, const std::string& code, const ImportOptions& options = {}) {
    const double start = hostile_cpu_seconds();
    ImportResult r = import_scene(file, options);
    const double seconds = hostile_cpu_seconds() - start;
    EXPECT_FALSE(r.ok()) << file;
    EXPECT_TRUE(hostile_has(r, code)) << file << " should be " << code << ", got:\n" << hostile_issues_text(r);
    EXPECT_LT(seconds, 20.0) << file << ": CPU seconds";
    for (const Issue& i : r.issues) {
        EXPECT_NE(find_import_code(i.code), nullptr) << i.code;
        EXPECT_TRUE(is_valid_utf8(i.message)) << i.message;
    }
    return r;
}

std::string code_of(const std::string& purpose) { return purpose.substr(purpose.rfind(": ") + 2); }

TEST(HostileInput, EveryGeneratedHostileFileIsRefusedWithItsCode) {
    size_t checked = 0;
    for (const testdata::FixtureFile& f : testdata::hostile_fixtures()) {
        if (f.path.ends_with(".bin")) continue;  // a companion buffer
        const fs::path file = testdata_dir() / f.path;
        SCOPED_TRACE(f.path + ": " + f.purpose);
        const ImportResult r = expect_hostile(file, code_of(f.purpose));
        // Nothing outside the folder is listed as a dependency (the depfile named /etc/passwd).
        for (const fs::path& dep : r.external_files)
            EXPECT_EQ(fs::weakly_canonical(dep).string().rfind(fs::weakly_canonical(file.parent_path()).string(), 0), 0u)
                << dep;
        ++checked;
    }
    EXPECT_GE(checked, 30u);
}

// The message names the weight's own attribute and its value as read: "weight 1 of JOINTS_0 is
// -0.000000" named the joints' attribute and printed a small negative weight as zero.
TEST(HostileInput, AnInvalidWeightIsNamedByItsWeightsAttributeAndItsValue) {
    const ImportResult r = expect_hostile(testdata_dir() / "hostile" / "nan_weight.glb", "WEIGHT_INVALID");
    std::string message;
    for (const Issue& i : r.issues)
        if (i.code == "WEIGHT_INVALID") message = i.message;
    EXPECT_NE(message.find("vertex 1 weight 0 of WEIGHTS_0 is "), std::string::npos) << message;
    EXPECT_NE(message.find("nan ("), std::string::npos) << message;
    EXPECT_EQ(message.find("JOINTS"), std::string::npos) << message;
}

TEST(HostileInput, TheOptionAllowsReadsOutsideTheFolderButNeverABlockingFile) {
    ImportOptions trust;
    trust.allow_outside_folder = true;
    const ImportResult r = import_scene(testdata_dir() / "hostile" / "buffer_absolute.gltf", trust);
    EXPECT_FALSE(hostile_has(r, "FILE_OUTSIDE_FOLDER")) << hostile_issues_text(r);
    ASSERT_EQ(r.external_files.size(), 1u);
    EXPECT_EQ(r.external_files[0], fs::path("/etc/passwd"));
    // A device out of the folder: allowed by place, still refused by kind.
    const fs::path dir = scratch_dir("HostileInput.Option");
    hostile_write(dir / "zero.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"uri":"/dev/zero","byteLength":64}]})");
    expect_hostile(dir / "zero.gltf", "NOT_A_FILE", trust);
    expect_hostile(dir / "zero.gltf", "FILE_OUTSIDE_FOLDER");
}

TEST(HostileInput, BlockingAndSpecialFilesAreNeverOpened) {
    const fs::path dir = scratch_dir("HostileInput.Special");
    ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
    fs::create_directories(dir / "folder");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string sock_path = (dir / "sock").string();
    ASSERT_LT(sock_path.size(), sizeof(addr.sun_path));
    std::strncpy(addr.sun_path, sock_path.c_str(), sizeof(addr.sun_path) - 1);
    const bool bound = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    fs::create_symlink("/dev/zero", dir / "zero_link");
    for (const char* name : {"pipe", "folder", "sock"}) {
        if (std::string(name) == "sock" && !bound) continue;
        SCOPED_TRACE(name);
        // A buffer, an image and an OBJ material library, each naming the special file.
        hostile_write(dir / "buffer.gltf", std::string(R"({"asset":{"version":"2.0"},"buffers":[{"uri":")") + name +
                                               R"(","byteLength":36}]})");
        expect_hostile(dir / "buffer.gltf", "NOT_A_FILE");
        hostile_write(dir / "image.gltf", std::string(R"({"asset":{"version":"2.0"},"images":[{"uri":")") + name + R"("}]})");
        expect_hostile(dir / "image.gltf", "NOT_A_FILE");
        hostile_write(dir / "model.obj", std::string("mtllib ") + name + "\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
        expect_hostile(dir / "model.obj", "NOT_A_FILE");
    }
    ::close(sock);
    // A link inside the folder to a device outside it: outside first.
    hostile_write(dir / "zero.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"uri":"zero_link","byteLength":36}]})");
    expect_hostile(dir / "zero.gltf", "FILE_OUTSIDE_FOLDER");
    // The model itself a FIFO: refused by kind, never opened.
    expect_hostile(dir / "pipe", "NOT_A_FILE");
}

TEST(HostileInput, ALinkOutOfTheFolderIsOutsideAndALinkWithinIsFine) {
    const fs::path dir = scratch_dir("HostileInput.Links");
    const fs::path outside = scratch_dir("HostileInput.Links.Outside");
    const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Cloth\nf 1 2 3\n";
    hostile_write(outside / "secret.mtl", "newmtl Cloth\nKd 1 0 0\n");
    hostile_write(dir / "real.mtl", "newmtl Cloth\nKd 1 0 0\n");
    fs::create_symlink(outside / "secret.mtl", dir / "out.mtl");
    fs::create_symlink("real.mtl", dir / "in.mtl");
    fs::create_directory_symlink(outside, dir / "out_dir");
    hostile_write(dir / "out.obj", "mtllib out.mtl\n" + obj);
    expect_hostile(dir / "out.obj", "FILE_OUTSIDE_FOLDER");
    hostile_write(dir / "out_dir.obj", "mtllib out_dir/secret.mtl\n" + obj);
    expect_hostile(dir / "out_dir.obj", "FILE_OUTSIDE_FOLDER");
    hostile_write(dir / "in.obj", "mtllib in.mtl\n" + obj);
    const ImportResult r = import_scene(dir / "in.obj");
    EXPECT_TRUE(r.ok()) << hostile_issues_text(r);
    // A missing material library is an error naming it, not a model built without its materials.
    hostile_write(dir / "missing.obj", "mtllib nowhere.mtl\n" + obj);
    const ImportResult missing = expect_hostile(dir / "missing.obj", "REFERENCED_FILE_MISSING");
    EXPECT_NE(hostile_issues_text(missing).find("nowhere.mtl"), std::string::npos) << hostile_issues_text(missing);
}

TEST(HostileInput, ARelativeModelPathIsReadOnceFromItsFolder) {
    // Assimp was handed "sub/a.obj" and the folder resolver joined it to "sub" again: the import
    // read sub/sub/a.obj, a different model. Here that wrong file has two triangles, the right one.
    const fs::path dir = scratch_dir("HostileInput.Relative");
    hostile_write(dir / "sub" / "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    hostile_write(dir / "sub" / "sub" / "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
    const fs::path relative = fs::relative(dir / "sub" / "a.obj", fs::current_path());
    ASSERT_TRUE(relative.is_relative());
    const ImportResult r = import_scene(relative);
    ASSERT_TRUE(r.ok()) << hostile_issues_text(r);
    size_t triangles = 0;
    for (const Mesh& m : r.scene.meshes) triangles += m.triangle_count();
    EXPECT_EQ(triangles, 1u);
}

TEST(HostileInput, AGltf1ChainOf200kNodesIsRefusedBeforeAssimpRecursesIntoIt) {
    const fs::path dir = scratch_dir("HostileInput.Chain");
    hostile_write(dir / "chain.gltf", testdata::gltf1_node_chain(200000));
    const ImportResult r = expect_hostile(dir / "chain.gltf", "GLTF_REFERENCE_INVALID");
    EXPECT_NE(hostile_issues_text(r).find("deeper than 1024 levels"), std::string::npos) << hostile_issues_text(r);
    // A short chain is read (and has no mesh).
    hostile_write(dir / "short.gltf", testdata::gltf1_node_chain(50));
    const ImportResult ok = import_scene(dir / "short.gltf");
    EXPECT_FALSE(hostile_has(ok, "GLTF_REFERENCE_INVALID")) << hostile_issues_text(ok);
}

TEST(HostileInput, AnExternalBufferLongerThanTheLimitIsRefusedUnread) {
    ImportOptions small;
    small.max_file_bytes = 1000;
    const fs::path dir = scratch_dir("HostileInput.Limit");
    hostile_write(dir / "big.bin", std::string(4096, '\0'));
    hostile_write(dir / "big.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"uri":"big.bin","byteLength":4096}]})");
    const ImportResult r = expect_hostile(dir / "big.gltf", "BUFFER_MISSING", small);
    EXPECT_NE(hostile_issues_text(r).find("more than the file limit of 1000 bytes"), std::string::npos) << hostile_issues_text(r);
}

TEST(HostileInput, NamesAreRepairedToUtf8) {
    EXPECT_TRUE(is_valid_utf8("Cape \xE2\x82\xAC"));
    EXPECT_FALSE(is_valid_utf8("Cape \xC3\x28"));
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));       // a surrogate
    EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));           // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));   // past U+10FFFF
    EXPECT_EQ(valid_utf8("a\xC3\x28z"), "a\xEF\xBF\xBD(z");
    EXPECT_EQ(valid_utf8("\xE2\x82"), "\xEF\xBF\xBD");  // one maximal subpart, one replacement
    const fs::path dir = scratch_dir("HostileInput.Utf8");
    hostile_write(dir / "names.obj", "o Cape\xFF\xFE\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const ImportResult r = import_scene(dir / "names.obj");
    ASSERT_TRUE(r.ok()) << hostile_issues_text(r);
    for (const Node& n : r.scene.nodes) EXPECT_TRUE(is_valid_utf8(n.name)) << n.name;
    for (const Mesh& m : r.scene.meshes) EXPECT_TRUE(is_valid_utf8(m.name)) << m.name;
}

}  // namespace
}  // namespace weft::test
