// The solver model: everything cooked once from a proxy, a fabric and the constants, immutable and
// shared (std::shared_ptr<const SolverModel>) by every solver that runs it, each with its own
// SolverState. What changes as the cloth moves is in state.h.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/constants.h"
#include "solver/contact_rows.h"
#include "solver/distance_rows.h"
#include "fabric/fabric.h"
#include "solver/hinge_rows.h"
#include "solver/pose_rows.h"
#include "solver/slack_rows.h"
#include "solver/sweep_blocks.h"

namespace weft {

inline constexpr uint32_t no_pin = UINT32_MAX;

struct SolverModel {
    /// Cooks every row for `proxy` under `fabric`. Throws std::invalid_argument with a message naming
    /// the offending field and element when the proxy, the fabric or the constants cannot be simulated.
    /// The proxy is referenced, not copied: it must outlive the model.
    static std::shared_ptr<const SolverModel> build(const ClothProxy& proxy, const Fabric& fabric,
                                                    const SolverConstants& constants = {});

    const ClothProxy* proxy = nullptr;
    Fabric fabric;
    SolverConstants constants;
    size_t n = 0;                         ///< particles

    // --- per particle ------------------------------------------------------------------------------
    std::vector<double> mass;             ///< kg of a free particle (a held one: its mass when released)
    std::vector<double> trust_radius;     ///< shortest incident row's rest length, metres (docs/solver.md#trust-region)
    std::vector<uint32_t> held_pin;       ///< the lowest pin naming the particle; no_pin otherwise
    double released_mass = 0;             ///< kg a released particle gets
    double shortest_row = 0;              ///< metres; +inf when the proxy has no distance rows
    double reach = 0;                     ///< the proxy's reach, metres: the sleep test's scale
    Quat rest_frame_rotation;             ///< the frame node's rest turn in the model (proxy.frame.rest_world)

    // --- the row kinds ------------------------------------------------------------------------------
    DistanceModel distance;
    HingeModel hinge;
    bool tethers = true;                  ///< constants.tethers
    SlackModel slack;
    PoseModel pose;
    ContactModel contact;

    // --- the sweep ----------------------------------------------------------------------------------
    SweepBlocks sweep;                    ///< each colour in blocks of lanes, its rows in sweep order
};

}  // namespace weft
