#include "validate/trace.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace weft {

nlohmann::json trace_json(const ScenarioTrace& trace) {
    nlohmann::json step = nlohmann::json::array(), speed = nlohmann::json::array(), strain = nlohmann::json::array(),
                   kinetic = nlohmann::json::array(), total = nlohmann::json::array(),
                   asleep = nlohmann::json::array(), driven = nlohmann::json::array();
    for (const StepFigures& f : trace.steps) {
        step.push_back(f.step);
        speed.push_back(f.max_speed);
        strain.push_back(f.max_strain);
        kinetic.push_back(f.kinetic_energy);
        total.push_back(f.total_energy);
        asleep.push_back(f.asleep);
        driven.push_back(f.driven);
    }
    return {{"scenario", scenario_label(trace.scenario, trace.clip)},
            {"steps",
             {{"step", step},
              {"max_speed", speed},
              {"max_strain", strain},
              {"kinetic_energy", kinetic},
              {"total_energy", total},
              {"asleep", asleep},
              {"driven", driven}}}};
}

std::string trace_csv(const std::string& garment, const ScenarioTrace& trace, bool header) {
    std::string out;
    if (header) out += "garment,scenario,step,max_speed,max_strain,kinetic_energy,total_energy,asleep,driven\n";
    // A garment name with a comma or quote is quoted (RFC 4180).
    std::string name = garment;
    if (name.find_first_of(",\"\n") != std::string::npos) {
        std::string quoted = "\"";
        for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        name = quoted + "\"";
    }
    char line[256];
    for (const StepFigures& f : trace.steps) {
        std::snprintf(line, sizeof line, ",%s,%u,%.9g,%.9g,%.9g,%.9g,%d,%d\n", scenario_label(trace.scenario, trace.clip).c_str(), f.step,
                      f.max_speed, f.max_strain, f.kinetic_energy, f.total_energy, f.asleep ? 1 : 0, f.driven ? 1 : 0);
        out += name;
        out += line;
    }
    return out;
}

}  // namespace weft
