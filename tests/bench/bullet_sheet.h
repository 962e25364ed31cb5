// A weft sheet in Bullet's btSoftBody, like for like (docs/measurements.md#the-sweep-like-for-like): node
// i is weft's particle i at its rest position with its mass (held: 0, fixed), exactly weft's stretch
// edges as links at Bullet's stiffest, bending as one link across each of weft's hinges (its two wing
// tips) at the stiffness that matches the fabric's bend ratio, Bullet's own budget of 2 substeps of
// `iterations` position iterations a 60 Hz frame. Float, as Debian builds Bullet.
//
// The held nodes follow a moving frame (Bullet has no frame of its own: the world is the frame, so
// the cloth feels all of its motion, weft's inertia 1) by a pre-tick callback that puts them on their
// anchor plus the frame's offset at every internal substep; gravity may change every frame (a wind
// blowing as a uniform acceleration, the same field weft is given).
#pragma once
#ifdef WEFT_HAVE_BULLET
#include <cmath>
#include <memory>
#include <vector>

#include "geom/vec.h"
#include "proxy/core/cloth_proxy.h"

// Bullet's headers are not -Wextra clean (unused parameters in inline virtuals); they are not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>
#pragma GCC diagnostic pop

namespace weft::bench {

class BulletSheet {
public:
    /// `bend`: the fabric's bend ratio; `damping`: its velocity damping per second (0: Bullet's none).
    BulletSheet(const ClothProxy& p, int iterations, double bend, double damping)
        : dispatcher_(&configuration_), world_(&dispatcher_, &broadphase_, &constraint_solver_, &configuration_) {
        set_gravity({0, -9.81, 0});
        world_.getWorldInfo().m_sparsesdf.Initialize();
        const int n = static_cast<int>(p.particle_count());
        std::vector<btVector3> x0(p.particle_count());
        std::vector<btScalar> mass(p.particle_count());
        for (uint32_t i = 0; i < p.particle_count(); ++i) {
            const Vec3& r = p.rest_position[i];
            x0[i] = btVector3(static_cast<btScalar>(r.x), static_cast<btScalar>(r.y), static_cast<btScalar>(r.z));
            mass[i] = p.inverse_mass[i] > 0 ? static_cast<btScalar>(1 / p.inverse_mass[i]) : 0;
            if (!(p.inverse_mass[i] > 0)) {
                fixed_.push_back(static_cast<int>(i));
                anchor_.push_back(x0[i]);
            }
        }
        body_ = new btSoftBody(&world_.getWorldInfo(), n, x0.data(), mass.data());
        btSoftBody::Material* stretch = body_->m_materials[0];
        stretch->m_kLST = 1;  // as stiff as Bullet's links go: weft's stretch rows are hard
        // weft's hinge is a soft row of stiffness bend·m_eff/h²: against the particle's own m/h², one
        // iteration closes bend/(1 + bend) of its error, which is what Bullet's kLST is.
        btSoftBody::Material* bending = body_->appendMaterial();
        bending->m_kLST = static_cast<btScalar>(bend / (1 + bend));
        bending->m_kAST = bending->m_kVST = 1;
        for (const auto& e : p.edges) body_->appendLink(static_cast<int>(e[0]), static_cast<int>(e[1]), stretch);
        for (const auto& h : p.hinges) body_->appendLink(static_cast<int>(h[2]), static_cast<int>(h[3]), bending);
        body_->m_cfg.piterations = iterations;
        // weft's decay exp(−damping·h) a substep is Bullet's velocity factor 1 − kDP.
        body_->m_cfg.kDP = static_cast<btScalar>(1 - std::exp(-damping / 120));
        body_->updateConstants();
        world_.addSoftBody(body_);
        world_.setInternalTickCallback(&BulletSheet::pre_tick, this, true);
    }
    ~BulletSheet() {
        world_.removeSoftBody(body_);
        delete body_;
    }
    BulletSheet(const BulletSheet&) = delete;
    BulletSheet& operator=(const BulletSheet&) = delete;

    /// Gravity (and wind) for the frames to come, m/s².
    void set_gravity(const Vec3& g) {
        const btVector3 b(static_cast<btScalar>(g.x), static_cast<btScalar>(g.y), static_cast<btScalar>(g.z));
        world_.setGravity(b);
        world_.getWorldInfo().m_gravity = b;
    }
    /// The frame's velocity over the frames to come, m/s: the held nodes move with it.
    void set_frame_velocity(const Vec3& v) {
        velocity_ = btVector3(static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z));
    }
    /// One 60 Hz frame: two internal substeps of 1/120 s.
    void frame() { world_.stepSimulation(1.0f / 60, 2, 1.0f / 120); }

    std::vector<Vec3> positions() const {
        std::vector<Vec3> x(static_cast<size_t>(body_->m_nodes.size()));
        for (int i = 0; i < body_->m_nodes.size(); ++i) {
            const btVector3& q = body_->m_nodes[i].m_x;
            x[static_cast<size_t>(i)] = {q.x(), q.y(), q.z()};
        }
        return x;
    }
    /// The frame's offset from where the held nodes started, metres (positions() are in the world).
    Vec3 frame_offset() const { return {offset_.x(), offset_.y(), offset_.z()}; }
    int nodes() const { return body_->m_nodes.size(); }

private:
    static void pre_tick(btDynamicsWorld* world, btScalar h) {
        auto* self = static_cast<BulletSheet*>(world->getWorldUserInfo());
        self->offset_ += self->velocity_ * h;
        // Exactly on the anchor, at rest: whether Bullet predicts its nodes' motion before or after this
        // callback, a fixed node then stands where the frame has carried it while the links are solved.
        for (size_t k = 0; k < self->fixed_.size(); ++k) {
            btSoftBody::Node& n = self->body_->m_nodes[self->fixed_[k]];
            n.m_x = self->anchor_[k] + self->offset_;
            n.m_v = btVector3(0, 0, 0);
        }
    }

    btSoftBodyRigidBodyCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver constraint_solver_;
    btSoftRigidDynamicsWorld world_;
    btSoftBody* body_ = nullptr;
    std::vector<int> fixed_;
    std::vector<btVector3> anchor_;
    btVector3 velocity_{0, 0, 0}, offset_{0, 0, 0};
};

}  // namespace weft::bench
#endif
