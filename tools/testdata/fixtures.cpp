#include "testdata/fixtures.h"

#include "io/atomic_file.h"
#include "scene/gltf_write.h"

namespace weft::testdata {

std::vector<FixtureFile> good_fixtures() {
    GlbOptions options;
    options.generator = "weft_gen_testdata";
    MannequinOptions chains, shared, cropped, bob;
    chains.authored_hair_chains = true;
    shared.skirt_on_body_material = true;
    cropped.hair = MannequinHair::cropped_cap;
    bob.hair = MannequinHair::bob;
    QuadrupedOptions unnamed;
    unnamed.unnamed_bones = true;
    const std::string fbx = mannequin_cm_fbx();
    return {
        {"mannequin.glb", encode_glb(make_mannequin(), options),
         "skinned humanoid, Body/Hair/Skirt slots, six hair strands, one skirt band, no cloth bones"},
        {"mannequin_chains.glb", encode_glb(make_mannequin(chains), options),
         "the mannequin with authored hair chains Hair_<strand>_1..4 under Head"},
        {"mannequin_shared_skirt.glb", encode_glb(make_mannequin(shared), options),
         "the mannequin with its skirt on the Body material (docs/growth.md#limits: not findable by slot)"},
        {"hair/cropped.glb", encode_glb(make_mannequin(cropped), options),
         "the mannequin with a cropped cap on Hair, 6 mm off the skull down to the ears: lies on the head"},
        {"hair/bob.glb", encode_glb(make_mannequin(bob), options),
         "the mannequin with a bob on Hair, from the crown to the chin, its ends 45 mm clear: hangs free"},
        {"flag.glb", encode_glb(make_flag(), options),
         "static pole (Pole) and a 12x8-quad open cloth sheet (Flag) hoisted along it"},
        {"sheets/curtain.glb", encode_glb(make_curtain(), options),
         "a curtain and its closed rod, two primitives of mesh Curtain: the rod holds it"},
        {"sheets/pleated_curtain.glb", encode_glb(make_pleated_curtain(), options),
         "12 pleats of 2.4 m sliver strips with a header above the rod, rod and cloth in mesh Curtain"},
        {"sheets/strips.glb", encode_glb(make_strips_sheet(), options),
         "25 strips of one 4 m x 4 cm quad each under a rod: long thin triangles, resampled (docs/proxy.md#resampling)"},
        {"sheets/dense.glb", encode_glb(make_dense_sheet(), options),
         "a 6,160-vertex waved 1.2 x 1.2 m sheet under a rod: dense, simplified by resampling"},
        {"sheets/holes.glb", encode_glb(make_holes_sheet(), options),
         "a 16 x 16-quad sheet with two holes under a rod: holes survive resampling"},
        {"sheets/fanned.glb", encode_glb(make_fanned_sheet(), options),
         "a sheet under a rod, each of its three bottom vertices fanned to four segments of its straight top edge"},
        {"sheets/coarse_tablecloth.glb", encode_glb(make_coarse_tablecloth(), options),
         "an 8-vertex cloth over a box table: the touching band of its 1.1 m median edge holds all of it"},
        {"sheets/table_runner.glb", encode_glb(make_table_runner(), options),
         "a 12-vertex runner that is the middle of a table's top, flush with its strips, hanging over both ends"},
        {"sheets/covered_mattress.glb", encode_glb(make_covered_mattress(), options),
         "a cover modelled lying on an open-box mattress (their top's outline shared, four triangles an edge), hanging over all four sides"},
        {"sheets/topless_tablecloth.glb", encode_glb(make_topless_tablecloth(), options),
         "the 8-vertex cloth on a table of legs and two top strips either side of it, no top under it"},
        {"sheets/banner_shield.glb", encode_glb(make_banner_shield(), options),
         "a banner under a rod with a domed shield, closed and thin for its width but uneven, in its mesh"},
        {"sheets/slab.glb", encode_glb(make_slab_sheet("slab", 0.035, false), options),
         "a banner modelled as a 3.5 cm slab under a rod, walls round its outline but along its held top"},
        {"sheets/thick_slab.glb", encode_glb(make_slab_sheet("thick_slab", 0.1, false), options),
         "the slab banner 10 cm thick, two thirds of its 15 cm edges: too thick to be one layer"},
        {"sheets/closed_slab.glb", encode_glb(make_slab_sheet("closed_slab", 0.009, true), options),
         "a 9 mm slab closed all round under a rod, thinner than a fabric's contact thickness"},
        {"sheets/finial.glb", encode_glb(make_finial(), options),
         "a post and its finial, a square knob closed round its top and held at its foot: a solid, not a slab"},
        {"sheets/doubled.glb", encode_glb(make_doubled_sheet(), options),
         "a flag modelled as doubled faces under a rod: the back's triangles over copies of the front's vertices, wound against them"},
        {"sheets/pole_flag.glb", encode_glb(make_pole_flag(), options),
         "a flag of 16 tall pleated quads as doubled faces, in a child of a node named for it that carries its pole"},
        {"sheets/side_flag.glb", encode_glb(make_side_flag(), options),
         "a row of tall thin quads whose width runs along Z, bellied along X at its middle, as doubled faces under a pole turned a quarter"},
        {"sheets/split_dress.glb", encode_glb(make_split_dress(), options),
         "a dress skinned rigid in two pieces: a bodice on Chest and a skirt on Hips joined to it by no vertex"},
        {"animals/unnamed_tail.glb", encode_glb(make_quadruped(unnamed), options),
         "a four-legged animal on bones named Bone..Bone.012, its tail Bone.008..Bone.012 leaving the hips between the back legs"},
        {"mannequin_cm.fbx", std::vector<uint8_t>(fbx.begin(), fbx.end()),
         "the mannequin as ASCII FBX 7.4 in centimetres, Z up (173 units tall)"},
        {"clip_skeleton.glb", clip_skeleton_glb(options),
         "a three-node skeleton whose clips Walk and Wave have a closed form (the hips walk, the arm turns)"},
    };
}

std::vector<FixtureFile> all_fixtures() {
    std::vector<FixtureFile> all = good_fixtures();
    for (FixtureFile& f : bad_fixtures()) all.push_back(std::move(f));
    for (FixtureFile& f : hostile_fixtures()) all.push_back(std::move(f));
    for (FixtureFile& f : layout_fixtures()) all.push_back(std::move(f));
    return all;
}

std::string write_fixtures(const std::filesystem::path& dir) {
    for (const FixtureFile& f : all_fixtures()) {
        if (std::string e = write_file_atomic(dir / f.path, f.bytes); !e.empty()) return e;
    }
    return {};
}

}  // namespace weft::testdata
