#include "proxy/core/render_binding.h"

namespace weft {

void particle_normals(const ClothProxy& proxy, std::span<const Vec3> particles, std::span<Vec3> normals) {
    for (Vec3& n : normals) n = {};
    for (const auto& [a, b, c] : proxy.triangles) {
        const Vec3 n = cross(particles[b] - particles[a], particles[c] - particles[a]);
        normals[a] += n;
        normals[b] += n;
        normals[c] += n;
    }
    for (Vec3& n : normals) {
        const double l = length(n);
        n = l > 0 ? n / l : Vec3{};
    }
}

void deform_render_mesh(const ClothProxy& proxy, std::span<const Vec3> particles, std::span<Vec3> normals,
                        std::span<Vec3> vertices, double offset_scale) {
    particle_normals(proxy, particles, normals);
    for (size_t v = 0; v < proxy.binding_triangle.size(); ++v) {
        const uint32_t t = proxy.binding_triangle[v];
        if (t == no_triangle) {
            vertices[v] = {};
            continue;
        }
        const auto& [a, b, c] = proxy.triangles[t];
        const Vec3& k = proxy.binding_coordinates[v];
        const double w = 1 - k.x - k.y;
        const Vec3 n = normals[a] * w + normals[b] * k.x + normals[c] * k.y;
        const double l = length(n);
        vertices[v] = particles[a] * w + particles[b] * k.x + particles[c] * k.y + (l > 0 ? n * (k.z * offset_scale / l) : Vec3{});
    }
}

}  // namespace weft
