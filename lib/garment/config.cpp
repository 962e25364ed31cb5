#include "garment/config.h"

#include <cmath>
#include <set>
#include <stdexcept>

#include "io/atomic_file.h"

namespace weft {

namespace {

using nlohmann::json;

constexpr std::string_view kConfigSchema = "weft.config/1";

bool valid_class_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

/// Reads a list of pattern strings at `value`; returns "" or the problem.
std::string read_patterns(const json& value, const std::string& pointer, std::vector<std::string>& out) {
    if (!value.is_array()) return pointer + ": must be a list of pattern strings";
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string at = pointer + "/" + std::to_string(i);
        if (!value[i].is_string()) return at + ": must be a string";
        std::string pattern = value[i].get<std::string>();
        if (std::string why = check_pattern(pattern); !why.empty())
            return at + ": pattern \"" + pattern + "\" is not usable: " + why;
        out.push_back(std::move(pattern));
    }
    return {};
}

std::string read_classes(const json& classes, GarmentConfig& config) {
    if (!classes.is_object()) return "/classes: must be an object of class name -> {patterns|add}";
    for (auto it = classes.begin(); it != classes.end(); ++it) {
        const std::string pointer = "/classes/" + it.key();
        if (!valid_class_name(it.key()))
            return pointer + ": a class name is lower-case letters, digits and `_` (at most 64)";
        if (it.key() == kNotAGarment) return pointer + ": \"none\" is reserved (it marks a name as not a garment)";
        const json& body = it.value();
        if (!body.is_object()) return pointer + ": must be an object with \"patterns\" or \"add\"";
        for (auto field = body.begin(); field != body.end(); ++field)
            if (field.key() != "patterns" && field.key() != "add")
                return pointer + "/" + field.key() + ": unknown key (expected \"patterns\" or \"add\")";
        if (body.contains("patterns") && body.contains("add"))
            return pointer + ": give \"patterns\" (replace) or \"add\" (extend), not both";
        if (!body.contains("patterns") && !body.contains("add"))
            return pointer + ": needs \"patterns\" (replace) or \"add\" (extend)";
        std::vector<std::string> patterns;
        const bool replace = body.contains("patterns");
        if (std::string why = read_patterns(replace ? body["patterns"] : body["add"],
                                            pointer + (replace ? "/patterns" : "/add"), patterns);
            !why.empty())
            return why;
        int index = find_class(config.classes, it.key());
        if (index < 0) {
            config.classes.push_back({it.key(), std::move(patterns)});
        } else if (replace) {
            config.classes[static_cast<size_t>(index)].patterns = std::move(patterns);
        } else {
            auto& existing = config.classes[static_cast<size_t>(index)].patterns;
            existing.insert(existing.end(), patterns.begin(), patterns.end());
        }
    }
    return {};
}

std::string read_rule(const json& item, const std::string& pointer, const GarmentConfig& config,
                      GarmentRule& rule) {
    rule.pointer = pointer;
    if (!item.is_object()) return pointer + ": must be an object";
    for (auto field = item.begin(); field != item.end(); ++field) {
        const std::string& key = field.key();
        const std::string at = pointer + "/" + key;
        if (key == "repair") {
            if (!field.value().is_boolean()) return at + ": must be true or false";
            rule.repair = field.value().get<bool>();
            continue;
        }
        if (key == "pin") {
            if (!field.value().is_string() && !field.value().is_object())
                return at + ": must be a string or an object";
            rule.pin = field.value();
            continue;
        }
        std::string* target = key == "file"       ? &rule.file
                              : key == "material" ? &rule.material
                              : key == "mesh"     ? &rule.mesh
                              : key == "node"     ? &rule.node
                              : key == "geometry" ? &rule.geometry
                              : key == "class"    ? &rule.class_name
                              : key == "fabric"   ? &rule.fabric
                                                  : nullptr;
        if (!target)
            return at + ": unknown key (expected file, material, mesh, node, geometry, class, fabric, pin, repair)";
        if (!field.value().is_string() || field.value().get<std::string>().empty())
            return at + ": must be a non-empty string";
        *target = field.value().get<std::string>();
    }
    int named = !rule.material.empty() + !rule.mesh.empty() + !rule.node.empty() + !rule.geometry.empty();
    if (named != 1) return pointer + ": needs exactly one of \"material\", \"mesh\", \"node\", \"geometry\"";
    if (rule.class_name.empty()) return pointer + ": needs \"class\" (a class name, or \"none\")";
    if (rule.class_name != kNotAGarment && find_class(config.classes, rule.class_name) < 0) {
        std::string known;
        for (const GarmentClass& c : config.classes) known += (known.empty() ? "" : ", ") + c.name;
        return pointer + "/class: unknown class \"" + rule.class_name + "\" (known: " + known + ", none)";
    }
    return {};
}

}  // namespace

std::string GarmentRule::target() const {
    if (!material.empty()) return "material " + material;
    if (!mesh.empty()) return "mesh " + mesh;
    if (!geometry.empty()) return "geometry " + geometry;
    return "node " + node;
}

GarmentConfig default_garment_config() {
    GarmentConfig config;
    config.classes = default_garment_classes();
    config.classes.push_back({std::string(kSpringClass), {}});
    return config;
}

namespace {

/// One "colliders" entry (docs/colliders.md#config): what it edits, on which bone, and the numbers the
/// edit needs, every one checked here so lib/body gets only sound edits.
std::string read_collider_rule(const json& r, const std::string& at, ColliderRule& rule) {
    rule.pointer = at;
    if (!r.is_object()) return at + ": must be an object with \"bone\" and \"edit\"";
    for (auto f = r.begin(); f != r.end(); ++f)
        if (f.key() != "file" && f.key() != "bone" && f.key() != "edit" && f.key() != "shape" && f.key() != "radius" &&
            f.key() != "scale" && f.key() != "a" && f.key() != "b")
            return at + "/" + f.key() + ": unknown key (expected file, bone, edit, shape, radius, scale, a, b)";
    if (r.contains("file")) {
        if (!r["file"].is_string()) return at + "/file: must be a file name glob";
        rule.file = r["file"].get<std::string>();
    }
    if (!r.contains("bone") || !r["bone"].is_string() || r["bone"].get<std::string>().empty())
        return at + "/bone: must name the bone the collider rides";
    rule.bone = r["bone"].get<std::string>();
    if (!r.contains("edit") || !r["edit"].is_string()) return at + "/edit: must be \"add\", \"remove\" or \"resize\"";
    rule.edit = r["edit"].get<std::string>();
    if (rule.edit != "add" && rule.edit != "remove" && rule.edit != "resize")
        return at + "/edit: \"" + rule.edit + "\" is not \"add\", \"remove\" or \"resize\"";
    // A length or factor: positive and at most 100 (metres, or times).
    auto positive = [&](const char* key, std::optional<double>& into) -> std::string {
        if (!r.contains(key)) return {};
        const json& v = r[key];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0) || v.get<double>() > 100)
            return at + "/" + key + ": must be a number above 0 and at most 100";
        into = v.get<double>();
        return {};
    };
    auto point = [&](const char* key, std::array<double, 3>& into) -> std::string {
        const json& v = r[key];
        if (!v.is_array() || v.size() != 3) return at + "/" + key + ": must be [x, y, z] in metres";
        for (size_t k = 0; k < 3; ++k) {
            if (!v[k].is_number() || !std::isfinite(v[k].get<double>()) || std::abs(v[k].get<double>()) > 100)
                return at + "/" + key + "/" + std::to_string(k) + ": must be a number of metres between -100 and 100";
            into[k] = v[k].get<double>();
        }
        return {};
    };
    if (std::string why = positive("radius", rule.radius); !why.empty()) return why;
    if (std::string why = positive("scale", rule.scale); !why.empty()) return why;
    auto only = [&](std::initializer_list<const char*> allowed) -> std::string {
        for (const char* key : {"shape", "radius", "scale", "a", "b"}) {
            bool ok = false;
            for (const char* a : allowed) ok = ok || std::string_view(a) == key;
            if (!ok && r.contains(key)) return at + "/" + key + ": a \"" + rule.edit + "\" edit takes no " + key;
        }
        return {};
    };
    if (rule.edit == "remove") return only({});
    if (rule.edit == "resize") {
        if (std::string why = only({"radius", "scale"}); !why.empty()) return why;
        if (rule.radius.has_value() == rule.scale.has_value())
            return at + ": a \"resize\" edit takes one of \"radius\" (metres) or \"scale\" (a factor)";
        return {};
    }
    if (std::string why = only({"shape", "radius", "a", "b"}); !why.empty()) return why;
    if (!r.contains("shape") || !r["shape"].is_string() ||
        (r["shape"].get<std::string>() != "sphere" && r["shape"].get<std::string>() != "capsule"))
        return at + "/shape: must be \"sphere\" or \"capsule\"";
    rule.shape = r["shape"].get<std::string>();
    if (!rule.radius) return at + "/radius: an \"add\" edit needs the radius in metres";
    if (!r.contains("a")) return at + "/a: an \"add\" edit needs \"a\", [x, y, z] in the bone's space";
    if (std::string why = point("a", rule.a); !why.empty()) return why;
    if (rule.shape == "capsule") {
        if (!r.contains("b")) return at + "/b: a capsule needs its other end \"b\", [x, y, z] in the bone's space";
        if (std::string why = point("b", rule.b); !why.empty()) return why;
    } else if (r.contains("b")) {
        return at + "/b: a sphere has one point, \"a\" (its centre)";
    }
    return {};
}

}  // namespace

namespace {

/// The config's JSON, parsed with every container's depth and every object's keys checked as they
/// are read: a too-deep or repeated member stops the parse at once (thrown out of the parser's
/// callback) instead of building a value that recursive code later walks. "" and `doc` set, or why not.
std::string parse_config_json(std::string_view text, json& doc) {
    struct Refused : std::runtime_error {
        using std::runtime_error::runtime_error;
    };
    struct Open {
        bool array = false;
        long index = -1;              // arrays: the element being read
        std::string key;              // objects: the member being read
        std::set<std::string> keys;   // objects: the keys seen
    };
    std::vector<Open> open;
    const auto pointer = [&] {
        std::string at;
        for (const Open& o : open) at += "/" + (o.array ? std::to_string(o.index) : o.key);
        return at;
    };
    const auto element = [&] {
        if (!open.empty() && open.back().array) ++open.back().index;
    };
    try {
        doc = json::parse(text, [&](int, json::parse_event_t event, json& parsed) {
            switch (event) {
                case json::parse_event_t::object_start:
                case json::parse_event_t::array_start:
                    element();
                    if (open.size() + 1 > size_t(kMaxConfigDepth))
                        throw Refused(pointer() + ": nested deeper than " + std::to_string(kMaxConfigDepth) +
                                      " levels; a config needs 5");
                    open.push_back({event == json::parse_event_t::array_start, -1, {}, {}});
                    break;
                case json::parse_event_t::key: {
                    Open& o = open.back();
                    o.key = parsed.get<std::string>();
                    if (!o.keys.insert(o.key).second)
                        throw Refused(pointer() + ": the key \"" + o.key + "\" is written twice in one object; keep one");
                    break;
                }
                case json::parse_event_t::object_end:
                case json::parse_event_t::array_end:
                    if (!open.empty()) open.pop_back();
                    break;
                case json::parse_event_t::value:
                    element();
                    break;
            }
            return true;
        });
    } catch (const Refused& e) {
        return e.what();
    } catch (const json::exception& e) {
        // parse_error, and out_of_range for a number past double's range ("1e999").
        return std::string("not valid JSON: ") + e.what();
    }
    return {};
}

/// One "clips" rule: which clips a file's validation plays.
std::string read_clip_rule(const json& r, const std::string& at, ClipRule& rule) {
    if (!r.is_object()) return at + ": must be an object with \"clips\" (and \"file\")";
    for (auto f = r.begin(); f != r.end(); ++f)
        if (f.key() != "file" && f.key() != "clips") return at + "/" + f.key() + ": unknown key (expected file, clips)";
    rule.pointer = at;
    if (r.contains("file")) {
        if (!r["file"].is_string()) return at + "/file: must be a file name glob";
        rule.file = r["file"].get<std::string>();
    }
    const json* c = r.contains("clips") ? &r["clips"] : nullptr;
    if (c && c->is_string() && (c->get<std::string>() == "all" || c->get<std::string>() == "none")) {
        rule.clips = c->get<std::string>();
        return {};
    }
    if (!c || !c->is_array() || c->empty()) return at + "/clips: must be \"all\", \"none\" or a list of clip names";
    for (size_t k = 0; k < c->size(); ++k) {
        const json& name = (*c)[k];
        if (!name.is_string() || name.get<std::string>().empty() || name.get<std::string>().find(',') != std::string::npos)
            return at + "/clips/" + std::to_string(k) + ": must be a clip name (no commas)";
        rule.clips += (k ? "," : "") + name.get<std::string>();
    }
    return {};
}

/// A list member of the config, each entry read by `read` into `into`: "" or why not.
template <class Rule, class Read>
std::string read_list(const json& doc, const char* key, const char* what, std::vector<Rule>& into, Read read) {
    if (!doc.contains(key)) return {};
    const json& list = doc[key];
    if (!list.is_array()) return std::string("/") + key + ": must be a list of " + what;
    for (size_t i = 0; i < list.size(); ++i) {
        Rule rule;
        if (std::string why = read(list[i], std::string("/") + key + "/" + std::to_string(i), rule); !why.empty()) return why;
        into.push_back(std::move(rule));
    }
    return {};
}

/// The config's members, each checked and read into `config`: "" or why not.
std::string read_config(const json& doc, GarmentConfig& config) {
    if (!doc.is_object()) return "the config must be a JSON object";
    for (auto field = doc.begin(); field != doc.end(); ++field)
        if (field.key() != "schema" && field.key() != "classes" && field.key() != "garments" &&
            field.key() != "min_garment_span" && field.key() != "clips" && field.key() != "colliders")
            return "/" + field.key() + ": unknown key (expected schema, classes, garments, min_garment_span, clips, colliders)";
    if (!doc.contains("schema") || !doc["schema"].is_string() || doc["schema"].get<std::string>() != kConfigSchema)
        return "/schema: must be \"" + std::string(kConfigSchema) + "\"";
    if (doc.contains("classes"))
        if (std::string why = read_classes(doc["classes"], config); !why.empty()) return why;
    if (std::string why = read_list(doc, "garments", "rules", config.rules,
                                    [&](const json& r, const std::string& at, GarmentRule& rule) {
                                        return read_rule(r, at, config, rule);
                                    });
        !why.empty())
        return why;
    if (doc.contains("min_garment_span")) {
        const json& v = doc["min_garment_span"];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || v.get<double>() > 100)
            return "/min_garment_span: must be a number of metres between 0 and 100";
        config.min_garment_span = v.get<double>();
    }
    if (std::string why = read_list(doc, "clips", "{\"file\", \"clips\"} rules", config.clips, read_clip_rule); !why.empty())
        return why;
    return read_list(doc, "colliders", "collider edits", config.colliders, read_collider_rule);
}

}  // namespace

ConfigResult parse_garment_config(std::string_view text, const std::string& origin) {
    ConfigResult result;
    result.config = default_garment_config();
    result.config.path = origin;
    json doc;
    std::string why = parse_config_json(text, doc);
    if (why.empty()) why = read_config(doc, result.config);
    if (!why.empty()) result.error = origin + ": " + why;
    return result;
}

ConfigResult load_garment_config(const std::filesystem::path& path) {
    std::vector<uint8_t> bytes;
    if (std::string why = read_file(path, bytes, uint64_t(16) << 20); !why.empty()) {
        ConfigResult result;
        result.config = default_garment_config();
        result.error = why;
        return result;
    }
    return parse_garment_config(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                                path.string());
}

bool glob_match(std::string_view pattern, std::string_view text) {
    // Iterative matcher with one backtrack point: linear in practice, never exponential.
    size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

bool rule_applies_to(const GarmentRule& rule, const std::filesystem::path& model_path) {
    return file_matches(rule.file, model_path);
}

bool file_matches(std::string_view file_glob, const std::filesystem::path& model_path) {
    if (file_glob.empty()) return true;
    if (file_glob.find('/') != std::string_view::npos) return glob_match(file_glob, model_path.generic_string());
    return glob_match(file_glob, model_path.filename().string());
}

std::vector<std::string> select_classes(std::string_view list, const std::vector<GarmentClass>& classes,
                                        std::string& error) {
    std::vector<std::string> selected;
    size_t start = 0;
    while (start <= list.size()) {
        size_t comma = list.find(',', start);
        if (comma == std::string_view::npos) comma = list.size();
        std::string name(list.substr(start, comma - start));
        while (!name.empty() && name.front() == ' ') name.erase(name.begin());
        while (!name.empty() && name.back() == ' ') name.pop_back();
        for (char& c : name)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (!name.empty()) {
            if (find_class(classes, name) < 0) {
                std::string known;
                for (const GarmentClass& c : classes) known += (known.empty() ? "" : ", ") + c.name;
                error = "unknown garment class \"" + name + "\" (known: " + known + ")";
                return {};
            }
            bool seen = false;
            for (const std::string& s : selected) seen = seen || s == name;
            if (!seen) selected.push_back(std::move(name));
        }
        start = comma + 1;
    }
    if (selected.empty()) error = "--classes names no class";
    return selected;
}

}  // namespace weft
