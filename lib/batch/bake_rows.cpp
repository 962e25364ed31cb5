#include "batch/bake_rows.h"

#include <stdexcept>
#include <utility>

#include <unistd.h>

#include "outputs/cloth_summary_json.h"

namespace weft {

using nlohmann::json;

json bake_row_to_wire(const BakeModelResult& r) {
    json issues = json::array();
    for (const Issue& i : r.issues) issues.push_back({i.code, static_cast<int>(i.severity), i.message, i.pointer});
    return {{"status", model_status_name(r.status)},
            {"unchanged", r.unchanged},
            {"cloth", cloth_summary_json(r.cloth)},
            {"issues", std::move(issues)},
            {"outputs", r.outputs},
            {"depends", r.depends},
            {"input_hash", r.input_hash},
            {"seconds", {r.seconds.hash, r.seconds.import, r.seconds.garments, r.seconds.grow, r.seconds.build, r.seconds.validate,
                         r.seconds.write, r.seconds.page, r.seconds.total}}};
}

void bake_row_from_wire(const json& j, BakeModelResult& r) {
    r.status = parse_model_status(j.at("status").get<std::string>()).value_or(ModelStatus::failed);
    r.unchanged = j.at("unchanged").get<bool>();
    r.cloth = cloth_summary_from_json(j.at("cloth")).value_or(ClothSummary{});
    r.issues.clear();
    for (const json& i : j.at("issues"))
        r.issues.push_back({i.at(0).get<std::string>(), static_cast<Severity>(i.at(1).get<int>()), i.at(2).get<std::string>(),
                            i.at(3).get<std::string>()});
    r.outputs = j.at("outputs").get<std::vector<std::string>>();
    r.depends = j.at("depends").get<std::vector<std::string>>();
    r.input_hash = j.at("input_hash").get<std::string>();
    const json& st = j.at("seconds");
    r.seconds = {st.at(0).get<double>(), st.at(1).get<double>(), st.at(2).get<double>(), st.at(3).get<double>(), st.at(4).get<double>(),
                 st.at(5).get<double>(), st.at(6).get<double>(), st.at(7).get<double>(), st.at(8).get<double>()};
}

BakeRows::BakeRows() = default;

BakeRows::~BakeRows() {
    if (file_) std::fclose(file_);
}

BakeRows::BakeRows(BakeRows&& o) noexcept
    : at_(std::move(o.at_)), counts_(std::move(o.counts_)), file_(std::exchange(o.file_, nullptr)), memory_(std::move(o.memory_)),
      end_(o.end_) {}

BakeRows& BakeRows::operator=(BakeRows&& o) noexcept {
    if (this != &o) {
        if (file_) std::fclose(file_);
        at_ = std::move(o.at_);
        counts_ = std::move(o.counts_);
        file_ = std::exchange(o.file_, nullptr);
        memory_ = std::move(o.memory_);
        end_ = o.end_;
    }
    return *this;
}

void BakeRows::resize(size_t count) {
    at_.resize(count);
    // An unnamed file (tmpfile: removed when closed or when the process ends, however it ends): the
    // output folder never sees it. Where none can be made the rows stay in memory.
    if (!file_ && count > 0) file_ = std::tmpfile();
}

void BakeRows::put(size_t k, const BakeModelResult& row) {
    json wire = bake_row_to_wire(row);
    wire["input"] = {row.input.path.string(), row.input.relative, row.input.input_index};
    const std::vector<uint8_t> bytes = json::to_cbor(wire);
    for (const Issue& i : row.issues) ++counts_[i.code];
    Place& p = at_.at(k);
    p.status = static_cast<uint8_t>(row.status);
    p.unchanged = row.unchanged ? 1 : 0;
    p.size = static_cast<uint32_t>(bytes.size());
    // pwrite, unbuffered: a full disk (or a file size limit) shows here, not at a later read.
    if (file_ && ::pwrite(::fileno(file_), bytes.data(), bytes.size(), static_cast<off_t>(end_)) == static_cast<ssize_t>(bytes.size())) {
        p.offset = end_;
        end_ += bytes.size();
        return;
    }
    // The temporary is full or gone: this row and the ones after it stay in memory.
    if (file_) {
        for (size_t j = 0; j < at_.size(); ++j) {
            if (j == k || at_[j].size == 0) continue;
            at_[j].offset = memory_.size();
            memory_.push_back(read_from_file(at_[j]));
        }
        std::fclose(file_);
        file_ = nullptr;
    }
    p.offset = memory_.size();
    memory_.push_back(bytes);
}

BakeModelResult BakeRows::operator[](size_t k) const {
    const Place& p = at_.at(k);
    BakeModelResult row;
    if (p.size == 0) return row;
    const json wire = json::from_cbor(file_ ? read_from_file(p) : memory_.at(p.offset));
    bake_row_from_wire(wire, row);
    const json& input = wire.at("input");
    row.input = {input.at(0).get<std::string>(), input.at(1).get<std::string>(), input.at(2).get<size_t>()};
    return row;
}

std::vector<uint8_t> BakeRows::read_from_file(const Place& p) const {
    std::vector<uint8_t> bytes(p.size);
    if (::pread(::fileno(file_), bytes.data(), bytes.size(), static_cast<off_t>(p.offset)) != static_cast<ssize_t>(bytes.size()))
        throw std::runtime_error("the bake's rows could not be read back from their temporary file");
    return bytes;
}

}  // namespace weft
