// A minimal reproduction of ThreadSanitizer's blind spot for `Synchronization.Mutex` on Linux
// (scripts/tsan-mutex-repro.sh builds and runs it). Two threads increment a counter, every
// access inside `withLock`: correct code, whose count always ends at 200,000. `Mutex` waits on a
// futex, which the sanitizer does not see, so it reports the accesses as a race. With HOOKS set,
// the lock also tells the sanitizer when it is taken and let go (`__tsan_acquire`,
// `__tsan_release`), as `PagingLock`'s `Lock` does, and the report goes.
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void
let handle = dlopen(nil, RTLD_NOW)
let hooks = getenv("HOOKS") != nil
let acquire = dlsym(handle, "__tsan_acquire").map { unsafeBitCast($0, to: Hook.self) }
let release = dlsym(handle, "__tsan_release").map { unsafeBitCast($0, to: Hook.self) }

final class Counter: @unchecked Sendable { var count = 0 }
let lock = Mutex(())
let counter = Counter()
nonisolated(unsafe) let address = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

func work() {
    for _ in 0..<100_000 {
        lock.withLock { _ in
            if hooks { acquire?(address) }
            counter.count += 1
            if hooks { release?(address) }
        }
    }
}

var threads: [pthread_t] = []
for _ in 0..<2 {
    var thread = pthread_t()
    pthread_create(&thread, nil, { _ in
        work()
        return nil
    }, nil)
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print("count \(counter.count)")
