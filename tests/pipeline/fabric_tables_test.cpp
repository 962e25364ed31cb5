// The builders (lib/proxy) cannot link the solver (docs/architecture.md#stages), so proxy/sheet_fabric.h mirrors the
// solver's class-to-fabric tables: this keeps the two in step, and every library fabric weighable.
#include <gtest/gtest.h>

#include "proxy/sheet_fabric.h"
#include "solver/fabric.h"

namespace weft {
namespace {

TEST(FabricTables, TheBuildersMirrorOfTheSolversTablesAgrees) {
    for (const char* c : {"hair", "tail", "ear", "ribbon", "sash", "veil", "scarf", "skirt", "dress", "flag",
                          "curtain", "cape", "cloak", "coat", "rope", "chain", "Hair", "SKIRT", "something else", ""}) {
        EXPECT_EQ(sheet_fabric_for_class(c), fabric_for_garment_class(c)) << c;
        EXPECT_EQ(rig_fabric_for_class(c), fabric_for_rig_class(c)) << c;
    }
    for (const Fabric& f : fabric_library()) EXPECT_TRUE(fabric_areal_density(f.name).has_value()) << f.name;
    EXPECT_EQ(fabric_density_names(), fabric_library_names());
}

}  // namespace
}  // namespace weft
