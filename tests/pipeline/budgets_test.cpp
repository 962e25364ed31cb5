// One garment's budgets (lib/pipeline/budgets.h, docs/bad-inputs.md#budgets): a report names a
// garment's defects without repeating one a million times (a garment of 1.2 million zero-area
// triangles made 1.2 million issues and 3.3 GB).
#include <gtest/gtest.h>

#include <string>

#include "pipeline/budgets.h"

namespace weft {
namespace {

TEST(GarmentBudgets, RepeatedIssuesAreFoldedIntoOneCountPerCode) {
    Issues issues;
    for (int i = 0; i < 250; ++i)
        issues.push_back({"DEGENERATE_TRIANGLE", Severity::warning, "m.glb: mesh 'Flag' triangle " + std::to_string(i) + ": zero area", "/t"});
    issues.push_back({"NON_MANIFOLD_EDGE", Severity::error, "m.glb: edge 3-4", "/e"});
    for (int i = 0; i < 3; ++i) issues.push_back({"OTHER", Severity::info, "m.glb: other " + std::to_string(i), ""});
    fold_repeated_issues(issues, 100);
    ASSERT_EQ(issues.size(), 100u + 1 + 1 + 3);
    EXPECT_EQ(issues[0].message, "m.glb: mesh 'Flag' triangle 0: zero area");
    EXPECT_EQ(issues[99].message, "m.glb: mesh 'Flag' triangle 99: zero area");
    EXPECT_EQ(issues[100].code, "DEGENERATE_TRIANGLE");
    EXPECT_EQ(issues[100].severity, Severity::warning);
    EXPECT_EQ(issues[100].message, "m.glb: and 150 more like it (250 in all; the first 100 are listed)");
    EXPECT_EQ(issues[101].code, "NON_MANIFOLD_EDGE");  // the others as they were, in order
    EXPECT_EQ(issues[104].message, "m.glb: other 2");
    // Within the budget nothing changes.
    Issues few(issues.begin() + 101, issues.end());
    const Issues kept = few;
    fold_repeated_issues(few, 100);
    ASSERT_EQ(few.size(), kept.size());
    for (size_t i = 0; i < few.size(); ++i) EXPECT_EQ(few[i].message, kept[i].message);
}

}  // namespace
}  // namespace weft
