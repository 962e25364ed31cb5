// A bake's rows, one a model, kept where a library of any size fits (docs/measurements.md#the-cost-curve-a-library-of-10-to-1000-models):
// each finished model's row goes to an unnamed temporary file as it arrives, so the driver holds 16
// bytes a model and reads each row back when it writes the report, the depfile and the page.
#pragma once
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/bake_model.h"
#include "io/issue.h"
#include "pipeline/cloth_summary.h"
#include "pipeline/model_status.h"

namespace weft {

/// One model file found by the walk.
struct BakeInput {
    std::filesystem::path path;       ///< as found
    std::string relative;             ///< generic path relative to its INPUT folder (the file name for a file INPUT)
    size_t input_index = 0;           ///< which INPUT found it
};

/// One model's row of the bake report: what bake_row keeps of its ModelRecord (the record itself,
/// scene and all, stays in the process that baked it).
struct BakeModelResult {
    BakeInput input;
    ModelStatus status = ModelStatus::failed;  ///< built, refused or failed; unchanged: what its stamp recorded
    bool unchanged = false;                    ///< its stamp matched: nothing rebuilt (counted under its status)
    ClothSummary cloth;                        ///< what it made of its cloth (summarise_cloth)
    Issues issues;
    std::vector<std::string> outputs;   ///< file names written into OUT/<relative>/, sorted
    std::vector<std::string> depends;   ///< every file the outputs depend on (model, external files, config), sorted
    std::string input_hash;             ///< "xxh64:..." over the model, every file it references and the config
    StageSeconds seconds;               ///< timings only
};

/// A row as a worker sends it to the driver and as the rows keep it: every field but the input.
nlohmann::json bake_row_to_wire(const BakeModelResult& row);
/// The fields bake_row_to_wire wrote, into `row` (its input left as it is); throws nlohmann's
/// exceptions on a wire that is not one.
void bake_row_from_wire(const nlohmann::json& wire, BakeModelResult& row);

/// The rows of a run in walk order. Rows are put once each, in any order, from one thread at a
/// time; reading them back (operator[], iteration) is for after the last put.
class BakeRows {
public:
    BakeRows();
    ~BakeRows();
    BakeRows(BakeRows&& other) noexcept;
    BakeRows& operator=(BakeRows&& other) noexcept;
    BakeRows(const BakeRows&) = delete;
    BakeRows& operator=(const BakeRows&) = delete;

    /// `count` rows, each a failed model of no input until put.
    void resize(size_t count);
    size_t size() const { return at_.size(); }
    bool empty() const { return at_.empty(); }

    /// Stores row `k` (replacing what was there).
    void put(size_t k, const BakeModelResult& row);
    /// Row `k` read back.
    BakeModelResult operator[](size_t k) const;

    ModelStatus status(size_t k) const { return static_cast<ModelStatus>(at_[k].status); }
    bool unchanged(size_t k) const { return at_[k].unchanged != 0; }
    /// How many of the rows' issues have each code: counted as rows are put (a put that replaces
    /// a row counts the new row's on top).
    const std::map<std::string, int>& issue_counts() const { return counts_; }

    /// Rows in walk order, each read back as the iteration reaches it.
    class Iterator {
    public:
        Iterator(const BakeRows* rows, size_t k) : rows_(rows), k_(k) {}
        BakeModelResult operator*() const { return (*rows_)[k_]; }
        Iterator& operator++() { ++k_; return *this; }
        bool operator!=(const Iterator& other) const { return k_ != other.k_; }

    private:
        const BakeRows* rows_;
        size_t k_;
    };
    Iterator begin() const { return {this, 0}; }
    Iterator end() const { return {this, size()}; }

private:
    struct Place {
        uint64_t offset = 0;  ///< in the file (or the index in memory_)
        uint32_t size = 0;    ///< 0: never put
        uint8_t status = static_cast<uint8_t>(ModelStatus::failed);
        uint8_t unchanged = 0;
    };
    std::vector<uint8_t> read_from_file(const Place& p) const;

    std::vector<Place> at_;
    std::map<std::string, int> counts_;
    std::FILE* file_ = nullptr;            ///< the unnamed temporary; null where none could be made
    std::vector<std::vector<uint8_t>> memory_;  ///< the rows when there is no temporary
    uint64_t end_ = 0;                     ///< where the next row goes in file_
};

}  // namespace weft
