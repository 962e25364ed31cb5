// weft bake (bake.h): the walk's models, each baked once in order of cost, in worker processes
// (bake_workers.h) or threads, into one result in walk order.
#include "batch/bake.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

#include "batch/bake_cost.h"
#include "batch/bake_workers.h"
#include "batch/process_memory.h"
#include "io/atomic_file.h"
#include "io/utf8_text.h"

namespace weft {

namespace fs = std::filesystem;

ModelOptions bake_model_options(const BakeInput& input, const BakeOptions& o) {
    ModelOptions options = o.model;
    options.out_dir = o.out_dir / fs::path(input.relative);
    options.out_root = o.out_dir;
    options.model_label = input.relative;
    options.out_label = input.relative;
    return options;
}

BakeModelResult bake_row(const BakeInput& input, const ModelRecord& r) {
    return {input, r.status, r.unchanged, summarise_cloth(r), r.issues, r.outputs, r.depends, r.input_hash, r.seconds};
}

BakeModelResult bake_one(const BakeInput& input, const BakeOptions& o) {
    return bake_row(input, bake_model(input.path, bake_model_options(input, o)));
}

// --- Spare capacity: the -j slots no model is using ----------------------------------------------
//
// Once fewer models are left than workers, a worker that finds none exits and its slot is handed to
// the validations still running, which run their scenarios side by side on it (ValidationOptions::
// spare; docs/commands.md, `weft bake`). -j beyond the number of models gives its extra slots at once; -j 1
// has none to give, so a bake at -j 1 never starts a thread.

BakeOptions with_spare(const BakeOptions& o, SpareCapacity* spare) {
    BakeOptions out = o;
    if (out.model.validate) out.model.validate->spare = spare;
    return out;
}

namespace {

/// The spare slots within one process (bake without isolation, bake_workers.cpp has the workers'):
/// a count of free slots.
class SlotCount final : public SpareCapacity {
public:
    bool try_take() override {
        for (long n = free_.load(); n > 0;)
            if (free_.compare_exchange_weak(n, n - 1)) return true;
        return false;
    }
    void give_back() override { ++free_; }
    void thread_started() override { tune_thread_memory(); }

private:
    std::atomic<long> free_{0};
};
/// Two INPUTs holding the same relative path would bake into one folder, the later overwriting the
/// earlier's outputs: the first (in INPUT order; the walk sorts by path, then INPUT) is baked, the
/// later ones refused by name. Returns 1 for each refused model.
std::vector<uint8_t> refuse_clashes(const std::vector<BakeInput>& inputs, const BakeOptions& o, BakeResult& result) {
    std::vector<uint8_t> clash(inputs.size(), 0);
    for (size_t k = 1; k < inputs.size(); ++k) {
        if (inputs[k].relative != inputs[k - 1].relative) continue;
        size_t first = k - 1;
        while (clash[first]) --first;
        clash[k] = 1;
        BakeModelResult r;
        r.input = inputs[k];
        r.status = ModelStatus::refused;
        r.depends = {inputs[k].path.generic_string()};
        r.issues.push_back(make_issue(kOutputClash, utf8_escaped(inputs[k].path.string()) + ": has the same relative path as " +
                                utf8_escaped(inputs[first].path.string()) + ", baked into " +
                                utf8_escaped((o.out_dir / inputs[k].relative).string()) +
                                "; not baked (bake the two folders into different OUTs, or rename one)",
                            ""));
        result.models.put(k, r);
    }
    return clash;
}

/// CONFIG_RULE_MATCHES_NO_MODEL for each config rule with a `file` glob that names none of the walked
/// models: a misspelt file name would otherwise make the rule silently do nothing (a rule naming a
/// material the model lacks is the model's CONFIG_RULE_NAMES_NOTHING). Globs match as the stages
/// match them, on the model's path in its INPUT (garment/config.h file_matches). Only a walked
/// folder is a library the rules are meant for: baking named files (a build farm's one model an
/// action, with the whole library's config) leaves the rules for the other models unsaid.
Issues rules_matching_no_model(const GarmentConfig& config, const std::vector<fs::path>& roots, const std::vector<BakeInput>& inputs) {
    std::error_code ec;
    if (std::none_of(roots.begin(), roots.end(), [&](const fs::path& p) { return fs::is_directory(p, ec); })) return {};
    std::vector<std::pair<std::string, std::string>> globs;  // pointer, glob
    for (const GarmentRule& r : config.rules) globs.emplace_back(r.pointer, r.file);
    for (const ClipRule& r : config.clips) globs.emplace_back(r.pointer, r.file);
    for (const ColliderRule& r : config.colliders) globs.emplace_back(r.pointer, r.file);
    std::string some;  // the models there are, for checking the spelling against
    constexpr size_t kNamed = 4;
    for (size_t k = 0; k < inputs.size() && k < kNamed; ++k) some += (k ? ", " : "") + utf8_escaped(inputs[k].relative);
    if (inputs.size() > kNamed) some += ", ... (" + std::to_string(inputs.size()) + " in all)";
    Issues issues;
    for (const auto& [pointer, glob] : globs) {
        if (glob.empty()) continue;  // every model
        const bool named = std::any_of(inputs.begin(), inputs.end(),
                                       [&](const BakeInput& in) { return file_matches(glob, fs::path(in.relative)); });
        if (named) continue;
        issues.push_back(make_issue(kConfigRuleMatchesNoModel,
                                    utf8_escaped(config.path) + " " + pointer + ": \"file\": \"" + utf8_escaped(glob) +
                                        "\" matches none of the models baked" + (some.empty() ? "" : " (" + some + ")") +
                                        "; the rule applies to nothing",
                                    pointer));
    }
    return issues;
}

/// The longest expected first (bake_cost.h), so with -j N the last model to finish is a short one;
/// results keep walk order (stored by index), so the order of work never shows in the outputs.
std::vector<size_t> bake_order(const std::vector<BakeInput>& inputs, const std::vector<uint8_t>& clash, const BakeOptions& o) {
    std::vector<size_t> order;
    std::vector<fs::path> paths;
    std::vector<std::string> relative;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (clash[k]) continue;
        order.push_back(k);
        paths.push_back(inputs[k].path);
        relative.push_back(inputs[k].relative);
    }
    const std::vector<double> cost = model_costs(paths, relative, o.out_dir / "bake-report.json", o.model.validate.has_value());
    std::vector<size_t> at(order.size());
    for (size_t i = 0; i < at.size(); ++i) at[i] = i;
    std::stable_sort(at.begin(), at.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    std::vector<size_t> sorted;
    for (size_t i : at) sorted.push_back(order[i]);
    return sorted;
}

/// The models in `order`, baked on `n` threads of this process.
void bake_in_threads(const std::vector<BakeInput>& inputs, const std::vector<size_t>& order, size_t n,
                     const BakeOptions& o, const BakeProgress& progress, BakeResult& result, size_t& done) {
    std::atomic<size_t> next{0};
    std::mutex mutex;
    SlotCount slots;
    for (size_t t = n; t < static_cast<size_t>(o.jobs); ++t) slots.give_back();  // -j beyond the models
    const BakeOptions lent = with_spare(o, o.jobs > 1 ? &slots : nullptr);
    auto worker = [&] {
        for (size_t m = next++; m < order.size(); m = next++) {
            const size_t k = order[m];
            BakeModelResult r = bake_one(inputs[k], lent);
            std::lock_guard<std::mutex> lock(mutex);
            result.models.put(k, r);
            ++done;
            if (progress) progress(r, done, inputs.size());
        }
        slots.give_back();  // no model left: this thread's slot goes to the validations still running
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < n; ++t)
        threads.emplace_back([&] {
            tune_thread_memory();  // this thread's own heap, as the main one (process_memory.h)
            worker();
        });
    worker();
    for (std::thread& t : threads) t.join();
}

}  // namespace

BakeResult bake(const BakeOptions& o, const BakeProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    BakeResult result;
    const std::vector<BakeInput> inputs = walk_inputs(o.inputs, o.out_dir, result.run_issues);
    for (Issue& i : rules_matching_no_model(o.model.garments.config, o.inputs, inputs)) result.run_issues.push_back(std::move(i));
    remove_stale_temporaries(o.out_dir);  // a killed run's half-written bake-report.json
    result.models.resize(inputs.size());
    const std::vector<uint8_t> clash = refuse_clashes(inputs, o, result);
    const std::vector<size_t> order = bake_order(inputs, clash, o);
    size_t done = 0;
    for (size_t k = 0; k < inputs.size(); ++k)
        if (clash[k] && progress) progress(result.models[k], ++done, inputs.size());
    const size_t n = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1, o.jobs)), order.size()));
    if (o.isolate)
        bake_in_workers(inputs, order, n, o, progress, result, done);
    else
        bake_in_threads(inputs, order, n, o, progress, result, done);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace weft
