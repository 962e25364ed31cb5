// Virtual particles' contact rows (docs/colliders.md#virtual-particles): a render vertex far off its
// link rides that link rigidly, as the skinned mesh does, and collides where it is. Its contact is
// linearised through the link's turn and shared between the link's free particles as one-sided planes,
// one per particle, like a span's (contact_rows.h): the sweep still sees unary rows only.
#pragma once
#include <array>

#include "solver/contact_rows.h"

namespace weft {

/// Where a virtual particle sits: carrier + turn(rest_link -> to − from)·offset, the turn the shortest
/// one (as a rig's joints are posed from their particles, docs/format.md#the-runtime).
Vec3 virtual_position(const Vec3& carrier, const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset);

/// ∂(n·p)/∂to of that position p: how far the point moves along n per metre the link's far end moves
/// (its negative is the gradient on `from`; the carrier's is n). Zero where the turn is undefined.
Vec3 virtual_turn_gradient(const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset, const Vec3& n);

/// The link's part of that gradient, which every point on the link shares, and the gradient from it:
/// virtual_turn_gradient(from, to, rest_link, offset, n) is
/// virtual_turn_gradient(link_turn_terms(from, to, rest_link), offset, n), the same operations on the
/// same operands, so the same to the bit.
LinkTurnTerms link_turn_terms(const Vec3& from, const Vec3& to, const Vec3& rest_link);
Vec3 virtual_turn_gradient(const LinkTurnTerms& link, const Vec3& offset, const Vec3& n);

namespace contact_rows {

/// Each virtual particle against each collider its box reaches: where it sits within the look-ahead of
/// the fabric's thickness (less its rest depth), each free particle of its link gets its share of the
/// contact as a one-sided plane along its gradient, kept among its deepest max_span_contacts span rows.
void find_virtual_rows(const ContactModel& model, ContactState& state, const ContactInputs& in, const SolverConstants& constants);

}  // namespace contact_rows
}  // namespace weft
