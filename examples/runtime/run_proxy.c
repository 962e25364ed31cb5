/* Runs a .clothproxy with weft's embeddable runtime (weft_runtime.h) as `weft validate --scenario hang`
 * does: the frame stood where it was bound, every holder at rest, gravity, 1/60 s steps, and a cloth
 * that its fabric holds in its bind pose kicked sideways first (1 m/s along the world's +x), as hang
 * kicks it. Prints each particle's position in the frame after the last step, one line each:
 * "index x y z" (%.17g, so the numbers round-trip): `weft validate PROXY --scenario hang --steps STEPS
 * --positions --model none` (the proxy alone) prints the same numbers.
 *
 *   run_proxy PROXY STEPS [FABRIC] */
#include <stdio.h>
#include <stdlib.h>

#include <weft_runtime.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PROXY STEPS [FABRIC]\n", argv[0]);
        return 2;
    }
    FILE* f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t capacity = 1 << 16, size = 0;
    unsigned char* bytes = malloc(capacity);
    for (size_t got; bytes && (got = fread(bytes + size, 1, capacity - size, f)) > 0;) {
        size += got;
        if (size == capacity) bytes = realloc(bytes, capacity *= 2);
    }
    fclose(f);
    if (!bytes) return 1;

    char error[512];
    weft_runtime* rt = weft_runtime_load(bytes, size, argc > 3 ? argv[3] : NULL, error, sizeof error);
    free(bytes);
    if (!rt) {
        fprintf(stderr, "%s: %s\n", argv[1], error);
        return 1;
    }
    weft_pose frame;
    weft_runtime_rest_frame(rt, &frame);
    weft_runtime_set_frame(rt, &frame);
    if (weft_runtime_holds_pose(rt)) {
        const double kick[3] = {1.0, 0.0, 0.0};
        weft_runtime_add_velocity(rt, kick);
    }
    const long steps = strtol(argv[2], NULL, 10);
    for (long s = 0; s < steps; ++s) {
        const int status = weft_runtime_step(rt, 1.0 / 60.0);
        if (status != WEFT_OK) {
            fprintf(stderr, "%s: step %ld: %s\n", argv[1], s + 1, weft_status_name(status));
            weft_runtime_free(rt);
            return 1;
        }
    }
    const uint32_t n = weft_runtime_particle_count(rt);
    double* x = malloc(sizeof(double) * 3 * (n ? n : 1));
    weft_runtime_positions(rt, x);
    for (uint32_t i = 0; i < n; ++i) printf("%u %.17g %.17g %.17g\n", i, x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    free(x);
    weft_runtime_free(rt);
    return 0;
}
