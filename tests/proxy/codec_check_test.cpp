// check_proxy catches every class of structural inconsistency, on proxies built in memory (the
// decoder runs the same checks on every file; codec_hostile_test proves the byte offsets).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "proxy/codec_fixtures.h"
#include "proxy/core/proxy_check.h"

namespace weft {
namespace {

struct Mutation {
    const char* name;
    std::function<void(ClothProxy&)> edit;
    ProxyError code;
    const char* field;
    uint64_t element;
    const char* says;
};

void expect_fault(const ClothProxy& base, const Mutation& m) {
    SCOPED_TRACE(m.name);
    ClothProxy p = base;
    m.edit(p);
    ProxyFault f = find_proxy_fault(p);
    EXPECT_EQ(proxy_error_code(f.error), std::string(proxy_error_code(m.code))) << f.message;
    EXPECT_EQ(f.field, m.field) << f.message;
    EXPECT_EQ(f.element, m.element) << f.message;
    EXPECT_NE(f.message.find(m.says), std::string::npos) << f.message;
    EXPECT_EQ(check_proxy(p), std::string(proxy_error_code(m.code)) + ": " + f.message);
}

TEST(CheckProxy, SoundProxiesPass) {
    EXPECT_EQ(check_proxy(test::small_proxy()), "");
    EXPECT_EQ(check_proxy(test::rig_proxy()), "");
    EXPECT_EQ(check_proxy(test::grid_proxy(32, 32)), "");
    EXPECT_EQ(check_proxy(ClothProxy{}), "");
    ClothProxy zero_colours;
    zero_colours.colour_ranges = {0};  // no particles, no colours: also sound
    EXPECT_EQ(check_proxy(zero_colours), "");
}

TEST(CheckProxy, ArraysThatDisagreeInLength) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"inverse_mass short", [](ClothProxy& p) { p.inverse_mass.pop_back(); }, ProxyError::count_mismatch, "inverse_mass", 0, "6 entries for 7 particles"},
        {"source long", [](ClothProxy& p) { p.source.push_back(0); }, ProxyError::count_mismatch, "source", 0, "8 entries for 7 particles"},
        {"d_geo short", [](ClothProxy& p) { p.d_geo.clear(); }, ProxyError::count_mismatch, "d_geo", 0, "0 entries"},
        {"nearest_held short", [](ClothProxy& p) { p.nearest_held.pop_back(); }, ProxyError::count_mismatch, "nearest_held", 0, "6 entries"},
        {"rest_length short", [](ClothProxy& p) { p.rest_length.pop_back(); }, ProxyError::count_mismatch, "rest_length", 0, "7 entries for 8 edges"},
        {"skip_rest_length without skips", [](ClothProxy& p) { p.skip_rest_length = {1}; }, ProxyError::count_mismatch, "skip_rest_length", 0, "1 entries for 0 skips"},
        {"joint_name partial", [](ClothProxy& p) { p.joint_name = {"a", "b"}; }, ProxyError::count_mismatch, "joint_name", 0, "either empty or one per particle"},
        {"collision_radius partial", [](ClothProxy& p) { p.collision_radius = {0.01}; }, ProxyError::count_mismatch, "collision_radius", 0, "either empty or one per particle"},
        {"vertex_particle beyond source meshes", [](ClothProxy& p) { p.vertex_particle.push_back(0); }, ProxyError::count_mismatch, "vertex_particle", 0, "9 entries but source_meshes cover 8"},
        {"vertex_particle without source meshes", [](ClothProxy& p) { p.source_meshes.clear(); }, ProxyError::count_mismatch, "vertex_particle", 0, "cover 0 vertices"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
}

TEST(CheckProxy, NumbersThatAreNotFiniteOrNegative) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"NaN position", [](ClothProxy& p) { p.rest_position[6].x = NAN; }, ProxyError::non_finite, "rest_position", 6, "rest_position[6] = (nan, 0.5, 0)"},
        {"inf position", [](ClothProxy& p) { p.rest_position[0].z = -INFINITY; }, ProxyError::non_finite, "rest_position", 0, "not finite"},
        {"NaN inverse mass", [](ClothProxy& p) { p.inverse_mass[2] = NAN; }, ProxyError::non_finite, "inverse_mass", 2, "inverse_mass[2] = nan"},
        {"inf inverse mass", [](ClothProxy& p) { p.inverse_mass[2] = INFINITY; }, ProxyError::non_finite, "inverse_mass", 2, "not finite"},
        {"negative inverse mass", [](ClothProxy& p) { p.inverse_mass[5] = -0.5; }, ProxyError::bad_value, "inverse_mass", 5, "-0.5 is negative"},
        {"NaN rest length", [](ClothProxy& p) { p.rest_length[1] = NAN; }, ProxyError::non_finite, "rest_length", 1, "rest_length[1] = nan"},
        {"negative rest length", [](ClothProxy& p) { p.rest_length[1] = -1; }, ProxyError::bad_value, "rest_length", 1, "negative"},
        {"NaN d_geo", [](ClothProxy& p) { p.d_geo[2] = NAN; }, ProxyError::non_finite, "d_geo", 2, "only +inf is allowed"},
        {"negative d_geo", [](ClothProxy& p) { p.d_geo[2] = -1; }, ProxyError::bad_value, "d_geo", 2, "d_geo[2] = -1 is negative"},
        {"NaN collision radius", [](ClothProxy& p) { p.collision_radius.assign(7, 0.0); p.collision_radius[4] = NAN; }, ProxyError::non_finite, "collision_radius", 4, "collision_radius[4] = nan"},
        {"negative collision radius", [](ClothProxy& p) { p.collision_radius.assign(7, 0.0); p.collision_radius[3] = -0.01; }, ProxyError::bad_value, "collision_radius", 3, "negative"},
        {"NaN total mass", [](ClothProxy& p) { p.total_mass = NAN; }, ProxyError::non_finite, "total_mass", 0, "total_mass = nan"},
        {"negative total mass", [](ClothProxy& p) { p.total_mass = -1; }, ProxyError::bad_value, "total_mass", 0, "negative"},
        {"NaN reference hinge area", [](ClothProxy& p) { p.hinge_reference_area = {NAN}; }, ProxyError::non_finite, "hinge_reference_area", 0, "hinge_reference_area[0] = nan"},
        {"zero reference hinge area", [](ClothProxy& p) { p.hinge_reference_area = {0.0}; }, ProxyError::bad_value, "hinge_reference_area", 0, "not positive"},
        {"reference areas for too many hinges", [](ClothProxy& p) { p.hinge_reference_area = {0.5, 0.5}; }, ProxyError::count_mismatch, "hinge_reference_area", 0, "either empty or one per hinge"},
        {"inf frame", [](ClothProxy& p) { p.frame.rest_world.m[3] = INFINITY; }, ProxyError::non_finite, "frame", 3, "frame.rest_world[3] = inf"},
        {"unknown kind", [](ClothProxy& p) { p.kind = static_cast<ProxyKind>(2); }, ProxyError::bad_value, "kind", 0, "neither sheet (0) nor rig (1)"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    ClothProxy rig = test::rig_proxy();
    rig.skip_rest_length[1] = INFINITY;
    EXPECT_EQ(find_proxy_fault(rig).field, "skip_rest_length");
    // Allowed: +inf d_geo where nothing holds, -0.0 anywhere a number must be >= 0.
    ClothProxy ok = base;
    ok.inverse_mass[0] = -0.0;
    ok.rest_length[0] = 0.0;
    EXPECT_EQ(check_proxy(ok), "");
}

// docs/bad-inputs.md#numbers-from-a-file: finite and not negative is not enough. The small proxy is
// 3.16 m across and weighs 1.3 kg; a rest length of 1e30, a collision radius of 1e9, a particle of
// 1e300 kg or of 1e-300 kg are refused by name, as the decoder (weft validate, the runtime) does.
TEST(CheckProxy, NumbersPastTheProxysOwnSize) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"rest length past the proxy", [](ClothProxy& p) { p.rest_length[1] = 1e30; }, ProxyError::bad_value, "rest_length", 1,
         "rest_length[1] = 1e+30 is more than twice the proxy's size (6.32455532"},
        {"collision radius past the proxy", [](ClothProxy& p) { p.collision_radius.assign(7, 0.0); p.collision_radius[3] = 1e9; },
         ProxyError::bad_value, "collision_radius", 3, "collision_radius[3] = 1000000000 is more than the proxy's size"},
        {"a particle heavier than the proxy", [](ClothProxy& p) { p.inverse_mass[5] = 1e-300; }, ProxyError::bad_value, "inverse_mass", 5,
         "e+299 kg in a proxy of 1.3 kg (a particle is at most the whole and at least a billionth of it)"},
        {"a particle of no weight", [](ClothProxy& p) { p.inverse_mass[5] = 1e300; }, ProxyError::bad_value, "inverse_mass", 5,
         "e-300 kg in a proxy of 1.3 kg"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    ClothProxy rig = test::rig_proxy();
    rig.skip_rest_length[0] = 10;  // the chain is 0.3 m long
    EXPECT_EQ(find_proxy_fault(rig).field, "skip_rest_length");
}

TEST(CheckProxy, IndicesOutOfRangeAndDegenerateRows) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"edge past the end", [](ClothProxy& p) { p.edges[2] = {1, 7}; }, ProxyError::index_out_of_range, "edges", 2, "edges[2] = (1, 7): particle 7 out of range (7 particles)"},
        {"hinge past the end", [](ClothProxy& p) { p.hinges[0] = {1, 2, 0, 99}; }, ProxyError::index_out_of_range, "hinges", 0, "particle 99"},
        {"triangle past the end", [](ClothProxy& p) { p.triangles[2][1] = no_particle; }, ProxyError::index_out_of_range, "triangles", 2, "particle 4294967295"},
        {"virtual particle past the end", [](ClothProxy& p) { p.virtual_link = {{0, 0, 2}, {2, 2, 7}}; p.virtual_rest_position.assign(2, {}); }, ProxyError::index_out_of_range, "virtual_link", 1, "virtual_link[1] = (2, 2, 7): particle 7 out of range (7 particles)"},
        {"virtual particle on no link", [](ClothProxy& p) { p.virtual_link = {{2, 4, 4}}; p.virtual_rest_position.assign(1, {}); }, ProxyError::bad_value, "virtual_link", 0, "its link has no length at rest"},
        {"virtual particle without a position", [](ClothProxy& p) { p.virtual_link = {{0, 0, 2}}; }, ProxyError::count_mismatch, "virtual_rest_position", 0, "0 entries for 1 virtual particles"},
        {"virtual particle at NaN", [](ClothProxy& p) { p.virtual_link = {{0, 0, 2}}; p.virtual_rest_position = {{0, NAN, 0}}; }, ProxyError::non_finite, "virtual_rest_position", 0, "not finite"},
        {"skip past the end", [](ClothProxy& p) { p.skips = {{0, 8}}; p.skip_rest_length = {1}; }, ProxyError::index_out_of_range, "skips", 0, "skips[0] = (0, 8)"},
        {"pin past the end", [](ClothProxy& p) { p.pins[0].particles = {0, 1, 7}; }, ProxyError::index_out_of_range, "pins", 0, "holder \"Pole\"): particle 7 out of range"},
        {"nearest_held past the end", [](ClothProxy& p) { p.nearest_held[2] = 7; }, ProxyError::index_out_of_range, "nearest_held", 2, "nearest_held[2] = 7"},
        {"vertex_particle past the end", [](ClothProxy& p) { p.vertex_particle[0] = 70; }, ProxyError::index_out_of_range, "vertex_particle", 0, "vertex_particle[0] = 70"},
        {"source vertex past the end", [](ClothProxy& p) { p.source[6] = 8; }, ProxyError::index_out_of_range, "source", 6, "(8 source vertices)"},
        {"edge to itself", [](ClothProxy& p) { p.edges[0] = {1, 1}; }, ProxyError::bad_value, "edges", 0, "names particle 1 twice"},
        {"hinge with a repeated wing", [](ClothProxy& p) { p.hinges[0] = {1, 2, 0, 0}; }, ProxyError::bad_value, "hinges", 0, "(1, 2, 0, 0) names particle 0 twice"},
        {"triangle with a repeated corner", [](ClothProxy& p) { p.triangles[0] = {0, 2, 0}; }, ProxyError::bad_value, "triangles", 0, "names particle 0 twice"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
}

TEST(CheckProxy, ColourRangesThatOverlapOrDoNotCover) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"none", [](ClothProxy& p) { p.colour_ranges.clear(); }, ProxyError::bad_colour_ranges, "colour_ranges", 0, "empty but there are 7 particles"},
        {"not from 0", [](ClothProxy& p) { p.colour_ranges = {1, 4, 6, 7}; }, ProxyError::bad_colour_ranges, "colour_ranges", 0, "must start at particle 0"},
        {"overlapping", [](ClothProxy& p) { p.colour_ranges = {0, 4, 3, 7}; }, ProxyError::bad_colour_ranges, "colour_ranges", 2, "colours overlap"},
        {"short", [](ClothProxy& p) { p.colour_ranges = {0, 4, 6}; }, ProxyError::bad_colour_ranges, "colour_ranges", 2, "ends at 6 but there are 7"},
        {"long", [](ClothProxy& p) { p.colour_ranges = {0, 4, 6, 8}; }, ProxyError::bad_colour_ranges, "colour_ranges", 3, "ends at 8"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    ClothProxy empty_colour = base;
    empty_colour.colour_ranges = {0, 4, 4, 6, 7};  // an empty colour covers nothing twice: sound
    EXPECT_EQ(check_proxy(empty_colour), "");
}

TEST(CheckProxy, InvalidColouringsOfEveryRowKind) {
    // Particles 4 and 5 are free, in colours 1; each row kind that couples them must be refused.
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"edge", [](ClothProxy& p) { p.edges.push_back({4, 5}); p.rest_length.push_back(2); }, ProxyError::bad_colouring, "colour_ranges", 1, "particles 4 and 5 share colour 1"},
        {"skip", [](ClothProxy& p) { p.skips = {{5, 4}}; p.skip_rest_length = {2}; }, ProxyError::bad_colouring, "colour_ranges", 1, "particles 4 and 5 share colour 1"},
        {"hinge wings", [](ClothProxy& p) { p.hinges.push_back({3, 6, 4, 5}); p.hinge_reference_area.push_back(0.75); }, ProxyError::bad_colouring, "colour_ranges", 1, "particles 4 and 5"},
        {"triangle", [](ClothProxy& p) { p.triangles.push_back({4, 6, 5}); }, ProxyError::bad_colouring, "colour_ranges", 1, "particles 4 and 5"},
        {"whole quad in one colour", [](ClothProxy& p) { p.colour_ranges = {0, 5, 6, 7}; }, ProxyError::bad_colouring, "colour_ranges", 0, "particles 2 and 4 share colour 0"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    // Held particles never block a colour (colour_greedy's rule): 0 and 1 share colour 0 with 2.
    ClothProxy held = base;
    held.edges.push_back({0, 3});  // a held and a free particle in one colour, coupled: fine
    held.rest_length.push_back(2);
    EXPECT_EQ(check_proxy(held), "");
}

TEST(CheckProxy, PinsAndGeodesicAndWriteBack) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"pin on a free particle", [](ClothProxy& p) { p.pins[0].particles = {0, 1, 4}; }, ProxyError::bad_pin, "pins", 0, "particle 4 has inverse_mass 4, so it is not held"},
        {"pin twice", [](ClothProxy& p) { p.pins[0].particles = {0, 0, 1}; }, ProxyError::bad_pin, "pins", 0, "particle 0 after 0"},
        {"pin unordered", [](ClothProxy& p) { p.pins.push_back({"Hand", {1, 0}}); }, ProxyError::bad_pin, "pins", 1, "holder \"Hand\"): particle 0 after 1"},
        {"finite d_geo, no nearest", [](ClothProxy& p) { p.nearest_held[2] = no_particle; }, ProxyError::bad_value, "nearest_held", 2, "d_geo = 1 but it has no nearest held particle"},
        {"inf d_geo with a nearest", [](ClothProxy& p) { p.nearest_held[5] = 1; }, ProxyError::bad_value, "nearest_held", 5, "d_geo = inf but nearest_held = 1"},
        {"nearest is free", [](ClothProxy& p) { p.nearest_held[4] = 2; }, ProxyError::bad_value, "nearest_held", 4, "nearest_held[4] = 2 has inverse_mass 4, so it is not held"},
        {"mesh gap", [](ClothProxy& p) { p.source_meshes[1].vertex_offset = 6; }, ProxyError::bad_value, "source_meshes", 1, "(\"Patch\") starts at vertex 6, expected 5"},
        {"source not welded in", [](ClothProxy& p) { p.source[2] = 3; }, ProxyError::bad_value, "source", 2, "vertex_particle[3] = 4"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    // A particle two pins name is legal (docs/proxy.md#pins: it goes to the lower holder).
    ClothProxy shared = base;
    shared.pins.push_back({"Hand", {1}});
    EXPECT_EQ(check_proxy(shared), "");
    // A rig's source is a skin joint index: not checked against vertex_particle.
    EXPECT_EQ(check_proxy(test::rig_proxy()), "");
}

TEST(CheckProxy, StringsMustBeCleanUtf8) {
    const ClothProxy base = test::small_proxy();
    const Mutation cases[] = {
        {"garment", [](ClothProxy& p) { p.garment = "\x80"; }, ProxyError::bad_string, "garment", 0, "garment is not clean UTF-8"},
        {"options", [](ClothProxy& p) { p.builder_options = std::string("{\0}", 3); }, ProxyError::bad_string, "builder_options", 0, "builder_options"},
        {"mesh", [](ClothProxy& p) { p.source_meshes[1].name = "\xED\xA0\x80"; }, ProxyError::bad_string, "source_meshes", 1, "source_meshes[1]"},
        {"holder", [](ClothProxy& p) { p.pins[0].holder = "\xF5\x80\x80\x80"; }, ProxyError::bad_string, "pins", 0, "pins[0].holder"},
        {"frame", [](ClothProxy& p) { p.frame.node = "Pole\xC3"; }, ProxyError::bad_string, "frame", 0, "frame"},
    };
    for (const Mutation& m : cases) expect_fault(base, m);
    ClothProxy rig = test::rig_proxy();
    rig.joint_name[2] = "\xC1\xBF";
    EXPECT_EQ(find_proxy_fault(rig).field, "joint_name");
    EXPECT_EQ(find_proxy_fault(rig).element, 2u);
}

TEST(CheckProxy, Utf8Validator) {
    EXPECT_TRUE(is_clean_utf8(""));
    EXPECT_TRUE(is_clean_utf8("Hair_L"));
    EXPECT_TRUE(is_clean_utf8("\xC3\xA4\xE2\x82\xAC\xF0\x9F\xA7\xB5"));  // ä € 🧵
    EXPECT_TRUE(is_clean_utf8("\xF4\x8F\xBF\xBF"));                       // U+10FFFF
    EXPECT_FALSE(is_clean_utf8(std::string("a\0b", 3)));                  // NUL
    EXPECT_FALSE(is_clean_utf8("\xC0\x80"));                              // overlong NUL
    EXPECT_FALSE(is_clean_utf8("\xE0\x80\xAF"));                          // overlong '/'
    EXPECT_FALSE(is_clean_utf8("\xED\xA0\x80"));                          // surrogate U+D800
    EXPECT_FALSE(is_clean_utf8("\xF4\x90\x80\x80"));                      // U+110000
    EXPECT_FALSE(is_clean_utf8("\xE2\x82"));                              // cut short
    EXPECT_FALSE(is_clean_utf8("\xBF"));                                  // lone continuation
    EXPECT_FALSE(is_clean_utf8("\xE2\x28\xA1"));                          // bad continuation
}

}  // namespace
}  // namespace weft
