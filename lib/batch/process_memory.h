// The process's heap for a bake: set up once, before the first model. A bake allocates and frees
// hundreds of megabytes in large blocks (Assimp's meshes, the scene, the proxies); with glibc's
// defaults each block over 128 KiB is a fresh mmap, each free near the top of the heap gives pages
// back, and every reuse faults them in again, one 4 KiB page at a time. On the shared VMs this
// project runs on a page fault costs several microseconds, and with -j 2 the two threads' faults
// and unmaps serialise on the kernel's lock of the one address space.
#pragma once

namespace weft {

/// Keeps freed memory for the next model and backs the heap with transparent huge pages where the
/// system allows them (glibc only; a no-op elsewhere and under sanitizers, whose allocators are
/// their own). Call once at the start of a process that bakes, before any thread starts; what it
/// changes is process-wide. Returns whether it changed anything.
bool tune_process_memory();

/// In a process forked from one that called tune_process_memory (a `weft bake` worker): the same
/// set-up for this process's own blocks, which then start on huge pages of its own rather than in the
/// small pages below them it shares, copy-on-write, with its parent. Call first thing after the fork.
/// Returns whether it changed anything.
bool tune_forked_process_memory();

/// The same for the calling thread's own heap (glibc gives each worker thread an arena of its own,
/// whose pages tune_process_memory's advice does not cover). Call at the start of each worker
/// thread; does nothing unless tune_process_memory was called. Returns whether it changed anything.
bool tune_thread_memory();

}  // namespace weft
