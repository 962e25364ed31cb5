// Validation sees a sheet's bound render mesh (docs/validation.md#the-bound-render-mesh): every
// scenario places it from the simulated particles and MESH_STRETCH gates its worst edge, so a proxy
// that behaves while the visible garment tears is refused.
#include <gtest/gtest.h>

#include <functional>

#include "fabric/fabric.h"
#include "io/format_text.h"
#include "proxy/codec_fixtures.h"
#include "validate/body.h"
#include "validate/validate.h"

namespace weft {
namespace {

// The grid bound to itself: render vertex v is particle v, on a corner of its lowest triangle,
// `offset(v)` metres along the particle normal.
ClothProxy bound_grid(const std::function<double(uint32_t)>& offset) {
    ClothProxy p = test::grid_proxy(8, 8, 0.05);
    const uint32_t n = static_cast<uint32_t>(p.particle_count());
    p.render_triangles = p.triangles;
    p.binding_triangle.assign(n, no_triangle);
    p.binding_coordinates.assign(n, Vec3{});
    for (uint32_t t = 0; t < p.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = p.triangles[t][k];
            if (p.binding_triangle[v] != no_triangle) continue;
            p.binding_triangle[v] = t;
            p.binding_coordinates[v] = {k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0, offset(v)};
        }
    return p;
}

ValidationOptions hang_and_swing() {
    ValidationOptions o;
    o.scenarios = {{Scenario::hang, 300}, {Scenario::swing, 300}};
    return o;
}

const GateResult* gate(const ProxyValidation& v, Gate g, Scenario s) {
    for (const GateResult& r : v.gates)
        if (r.gate == g && r.scenario == s) return &r;
    return nullptr;
}

TEST(MeshStretch, AFaithfulBindingPassesEveryScenario) {
    const ProxyValidation v = validate_proxy(bound_grid([](uint32_t) { return 0.0; }), hang_and_swing());
    ASSERT_FALSE(v.refused);
    for (const ScenarioStats& s : v.scenarios) {
        ASSERT_TRUE(s.max_mesh_stretch) << scenario_name(s.scenario);
        // On its particles the render mesh stretches exactly as the proxy's edges do.
        EXPECT_NEAR(*s.max_mesh_stretch, s.max_strain, 0.02) << scenario_name(s.scenario);
    }
    const GateResult* g = gate(v, Gate::mesh_stretch, Scenario::swing);
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->passed) << g->message;
    EXPECT_EQ(g->limit, 1.10);
}

TEST(MeshStretch, ARenderMeshThatTearsIsRefusedWhileTheProxyBehaves) {
    // Every other vertex 20 cm off the cloth on alternate sides: flat at rest, torn by any bend.
    const ProxyValidation v = validate_proxy(bound_grid([](uint32_t q) { return q % 2 ? 0.2 : -0.2; }), hang_and_swing());
    ASSERT_FALSE(v.refused);
    const GateResult* strain = gate(v, Gate::strain, Scenario::swing);
    const GateResult* mesh = gate(v, Gate::mesh_stretch, Scenario::swing);
    ASSERT_NE(strain, nullptr);
    ASSERT_NE(mesh, nullptr);
    EXPECT_TRUE(strain->passed) << strain->message;
    EXPECT_FALSE(mesh->passed) << mesh->message;
    EXPECT_GT(*mesh->value, 1.10);
    EXPECT_NE(mesh->message.find("the visible garment tears"), std::string::npos) << mesh->message;
    EXPECT_FALSE(v.passed());
}

// A `source` sheet's binding is the identity: every render vertex is a particle (vertex_particle) and
// sits on it, every render edge is a stretch row. Its render mesh stretches exactly as the proxy does,
// so MESH_STRETCH is neither measured nor gated (STRAIN is); the same grid with its vertices lifted
// off their particles is measured again.
// The render mesh stands off the particles toward a body: the particles are held a thickness out of
// it, the render vertices between and beside them are not, and PENETRATION sees them
// (docs/validation.md#bound-sheets). The same sheet with its render mesh on the particles passes.
TEST(MeshStretch, ABoundRenderMeshSinkingIntoTheBodyIsRefusedWhileItsParticlesStayOut) {
    // A ball in front of the hanging 35 x 35 cm grid (its normal is +z), 3 cm clear of it at rest.
    BodyShapes body;
    body.spheres.push_back({{0.175, -0.175, 0.33}, 0.3});
    ValidationOptions o;
    o.scenarios = {{Scenario::swing, 200}};  // kicked 3 m/s forward, into the ball
    o.body = body;
    const double thickness = suggested_fabric(test::grid_proxy(8, 8, 0.05)).thickness;
    ASSERT_LT(thickness, 0.02);

    // Render vertices 2 cm in front of their particles: 1 cm clear of the ball at rest. The render
    // mesh is two model meshes, its rows split between them, so the gate names the one it finds.
    ClothProxy two_meshes = bound_grid([](uint32_t) { return 0.02; });
    const uint32_t half = static_cast<uint32_t>(two_meshes.vertex_particle.size() / 2);
    two_meshes.source_meshes = {{"Top", "Cloth", 0, half},
                                {"Bottom", "Cloth", half, static_cast<uint32_t>(two_meshes.vertex_particle.size()) - half}};
    const ProxyValidation off = validate_proxy(two_meshes, o);
    ASSERT_FALSE(off.refused);
    ASSERT_EQ(off.scenarios.size(), 1u);
    const ScenarioStats& s = off.scenarios[0];
    ASSERT_TRUE(s.max_penetration);
    ASSERT_TRUE(s.max_render_penetration);
    EXPECT_LE(*s.max_penetration, thickness);                  // the particles stay out
    EXPECT_GT(*s.max_render_penetration, 0.02 - thickness - 0.003);  // the skin goes in by about its offset less a thickness
    EXPECT_GT(s.max_render_penetration_step, 0u);
    const GateResult* pen = nullptr;
    for (const GateResult& g : off.gates)
        if (g.gate == Gate::penetration && g.value == s.max_render_penetration) pen = &g;
    ASSERT_NE(pen, nullptr);
    EXPECT_FALSE(pen->passed) << pen->message;
    EXPECT_DOUBLE_EQ(*pen->limit, thickness);
    ASSERT_FALSE(s.max_render_penetration_mesh.empty());
    const SourceMesh& in = s.max_render_penetration_mesh == "Top" ? two_meshes.source_meshes[0] : two_meshes.source_meshes[1];
    EXPECT_EQ(s.max_render_penetration_mesh, in.name);
    EXPECT_LT(s.max_render_penetration_vertex, in.vertex_count);
    EXPECT_NE(pen->message.find(format_text("render vertex %u of mesh '%s'", s.max_render_penetration_vertex, in.name.c_str())),
              std::string::npos)
        << pen->message;
    EXPECT_FALSE(off.passed());

    // On its particles the render mesh goes no deeper than they do, and passes.
    const ProxyValidation on = validate_proxy(bound_grid([](uint32_t) { return 0.0; }), o);
    ASSERT_TRUE(on.scenarios[0].max_render_penetration);
    EXPECT_LE(*on.scenarios[0].max_render_penetration, thickness);
    EXPECT_TRUE(on.passed());

    // No body, no depth.
    EXPECT_FALSE(validate_proxy(bound_grid([](uint32_t) { return 0.02; }), hang_and_swing()).scenarios[0].max_render_penetration);
}

TEST(MeshStretch, AnIdentityBindingIsLeftToStrain) {
    ClothProxy identity = bound_grid([](uint32_t) { return 0.0; });
    identity.vertex_particle.resize(identity.particle_count());
    for (uint32_t v = 0; v < identity.vertex_particle.size(); ++v) identity.vertex_particle[v] = v;
    const ProxyValidation v = validate_proxy(identity, hang_and_swing());
    ASSERT_FALSE(v.refused);
    for (const ScenarioStats& s : v.scenarios) EXPECT_FALSE(s.max_mesh_stretch) << scenario_name(s.scenario);
    EXPECT_EQ(gate(v, Gate::mesh_stretch, Scenario::swing), nullptr);
    ASSERT_NE(gate(v, Gate::strain, Scenario::swing), nullptr);

    ClothProxy lifted = bound_grid([](uint32_t q) { return q % 2 ? 0.01 : -0.01; });
    lifted.vertex_particle = identity.vertex_particle;
    const ProxyValidation w = validate_proxy(lifted, hang_and_swing());
    for (const ScenarioStats& s : w.scenarios) EXPECT_TRUE(s.max_mesh_stretch) << scenario_name(s.scenario);
    EXPECT_NE(gate(w, Gate::mesh_stretch, Scenario::swing), nullptr);
}

TEST(MeshStretch, ARigHasNoRenderMeshToMeasure) {
    ClothProxy p = test::grid_proxy(4, 4, 0.05);  // no binding: nothing placed, no gate
    const ProxyValidation v = validate_proxy(p, hang_and_swing());
    for (const ScenarioStats& s : v.scenarios) EXPECT_FALSE(s.max_mesh_stretch);
    EXPECT_EQ(gate(v, Gate::mesh_stretch, Scenario::swing), nullptr);
}

}  // namespace
}  // namespace weft
