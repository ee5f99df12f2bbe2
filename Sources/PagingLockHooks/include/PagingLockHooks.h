// Tells ThreadSanitizer about the lock of `PagingLock.Lock` on Linux.
//
// There the lock is `Synchronization.Mutex`, a futex that ThreadSanitizer
// does not see: without these calls it reports every access made under the
// lock as a race. The sanitizer's runtime defines `__tsan_acquire` and
// `__tsan_release`; the references are weak, so in a build without it they
// are null and each call is one comparison.
#ifndef PAGING_LOCK_HOOKS_H
#define PAGING_LOCK_HOOKS_H

#if defined(__linux__)
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

/// The lock at `address` was taken.
static inline void paging_lock_acquired(void *address) {
    if (__tsan_acquire) { __tsan_acquire(address); }
}

/// The lock at `address` is about to be released.
static inline void paging_lock_releasing(void *address) {
    if (__tsan_release) { __tsan_release(address); }
}
#endif

#endif
