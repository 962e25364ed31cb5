// weft_gen_testdata [DIR]: writes every fixture of testdata/ (tools/testdata/fixtures.h) into DIR
// (default: testdata). The output depends on nothing but this program, so a test can regenerate
// it and compare byte for byte with what is committed.
#include <cstdio>
#include <filesystem>
#include <string>

#include "testdata/fixtures.h"

int main(int argc, char** argv) {
    if (argc > 2 || (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
        std::fprintf(stderr, "usage: weft_gen_testdata [DIR]   (default DIR: testdata)\n");
        return 2;
    }
    const std::filesystem::path dir = argc == 2 ? argv[1] : "testdata";
    if (std::string error = weft::testdata::write_fixtures(dir); !error.empty()) {
        std::fprintf(stderr, "weft_gen_testdata: %s\n", error.c_str());
        return 1;
    }
    std::fprintf(stderr, "weft_gen_testdata: wrote %zu files under %s\n", weft::testdata::all_fixtures().size(),
                 dir.string().c_str());
    return 0;
}
