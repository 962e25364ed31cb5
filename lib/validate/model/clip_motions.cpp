#include "validate/model/clip_motions.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "scene/bind_pose.h"
#include "validate/scenario.h"
#include "validate/validation_codes.h"
#include "io/format_text.h"
#include "io/utf8_text.h"

namespace weft {

namespace {

/// The rigid part of a placement: scale and any reflection taken out.
Pose rigid_pose(const Mat4& m) {
    Vec3 t, s;
    Quat r;
    m.decompose(t, r, s);
    return {t, r};
}

}  // namespace

std::vector<int> choose_clips(const Scene& scene, const ClipChoice& choice, const std::string& model, std::string& error) {
    std::vector<int> out;
    switch (choice.mode) {
        case ClipChoice::none: break;
        case ClipChoice::all:
            for (size_t c = 0; c < scene.clips.size(); ++c) out.push_back(static_cast<int>(c));
            break;
        case ClipChoice::defaults: {
            // How many default words a name says: "Jump_Idle" says two and is no jump.
            const auto words_said = [](const std::string& name) {
                int n = 0;
                for (std::string_view w : default_clip_words) n += ascii_lower(name).find(w) != std::string::npos;
                return n;
            };
            for (std::string_view word : default_clip_words) {
                int best = -1;
                for (size_t c = 0; c < scene.clips.size(); ++c) {
                    const std::string& name = scene.clips[c].name;
                    if (ascii_lower(name).find(word) == std::string::npos) continue;
                    if (std::find(out.begin(), out.end(), static_cast<int>(c)) != out.end()) continue;
                    const auto rank = [&](size_t k) {
                        return std::pair(words_said(scene.clips[k].name), scene.clips[k].name.size());
                    };
                    if (best < 0 || rank(c) < rank(static_cast<size_t>(best))) best = static_cast<int>(c);
                }
                if (best >= 0) out.push_back(best);
            }
            break;
        }
        case ClipChoice::named:
            for (const std::string& name : choice.names) {
                const int c = find_clip(scene, name);
                if (c < 0) {
                    std::string list;
                    for (const Clip& clip : scene.clips) list += (list.empty() ? "" : ", ") + clip.name;
                    error = model + ": no animation clip '" + name + "'; " +
                            (scene.clips.empty() ? std::string("the model has no clips")
                                                 : "its " + std::to_string(scene.clips.size()) + " clips: " + list);
                    return {};
                }
                if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
            }
            break;
    }
    return out;
}

ClipMotion sample_clip(const Scene& scene, const Clip& clip) {
    ClipMotion out;
    out.name = clip.name;
    std::vector<size_t> nodes;  // the first node of each name
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.find_node(scene.nodes[n].name) == static_cast<int>(n)) {
            nodes.push_back(n);
            out.nodes.push_back(scene.nodes[n].name);
        }
    std::vector<Pose> from_bind(nodes.size());
    for (size_t k = 0; k < nodes.size(); ++k) from_bind[k] = inverse(rigid_pose(bind_world(scene, static_cast<int>(nodes[k]))));
    const size_t frames = static_cast<size_t>(std::floor(clip.duration / validation_dt + 1e-9)) + 1;
    out.frames.resize(frames);
    for (size_t f = 0; f < frames; ++f) {
        const std::vector<Mat4> world = clip_world(scene, clip, static_cast<double>(f) * validation_dt);
        out.frames[f].resize(nodes.size());
        for (size_t k = 0; k < nodes.size(); ++k) out.frames[f][k] = compose(rigid_pose(world[nodes[k]]), from_bind[k]);
    }
    return out;
}

ClipChoice configured_clips(const GarmentConfig& config, const std::filesystem::path& model, const ClipChoice& given) {
    if (given.mode != ClipChoice::defaults) return given;
    for (const ClipRule& rule : config.clips)
        if (file_matches(rule.file, model)) return ClipChoice::parse(rule.clips);
    return given;
}

void add_clip_scenarios(const Scene& scene, const std::string& model, ValidationOptions& options, Issues& issues,
                        uint32_t steps, const ClipBudget& budget) {
    std::string error;
    const std::vector<int> chosen = choose_clips(scene, options.clip_choice, model, error);
    if (!error.empty()) {
        issues.push_back(make_issue(kClipNotFound, error, "/animations"));
        return;
    }
    uint64_t samples_left = budget.max_samples;
    const uint64_t nodes = std::max<uint64_t>(scene.nodes.size(), 1);  // sample_clip samples at most every node
    for (int c : chosen) {
        const Clip& clip = scene.clips[static_cast<size_t>(c)];
        const std::string pointer = "/animations/" + std::to_string(c);
        // Frames of the part that fits: the clip's length budget, then the model's samples left.
        const double fits = std::min(budget.max_seconds, static_cast<double>(samples_left / nodes) * validation_dt - validation_dt);
        if (fits < 0) {
            issues.push_back(make_issue(kClipOverBudget,
                                        model + ": clip '" + clip.name + "' was not played: the clips before it used the model's budget of " +
                                            std::to_string(budget.max_samples) + " sampled node poses (" + std::to_string(nodes) +
                                            " nodes a frame)",
                                        pointer));
            continue;
        }
        if (clip.duration <= fits) {
            options.clips.push_back(sample_clip(scene, clip));
        } else {
            issues.push_back(make_issue(kClipOverBudget,
                                        model + ": clip '" + clip.name + "' lasts " + format_text("%g", clip.duration) +
                                            " s: validation plays its first " + format_text("%g", fits) + " s (" +
                                            (fits < budget.max_seconds ? "what is left of the model's budget of " +
                                                                              std::to_string(budget.max_samples) + " sampled node poses"
                                                                        : format_text("a clip's budget of %g s", budget.max_seconds)) +
                                            ")",
                                        pointer));
            Clip cut = clip;  // sampled to its end: cut the end to what fits
            cut.duration = fits;
            options.clips.push_back(sample_clip(scene, cut));
        }
        samples_left -= std::min<uint64_t>(samples_left, options.clips.back().frames.size() * nodes);
    }
    add_clip_runs(options, steps ? steps : options.clip_steps);
}

}  // namespace weft
