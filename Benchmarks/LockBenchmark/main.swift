// Issue 14: PagingLock's Lock against Synchronization.Mutex, uncontended
// withLock, interleaved in one run. Built and run by scripts/lock-benchmark.sh,
// which copies Sources/PagingLock/Lock.swift beside this file (the lock is
// `package`, so the benchmarks package cannot import it).
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class WithMutex: @unchecked Sendable { let m = Mutex(0) }
final class WithLock: @unchecked Sendable { let l = Lock(0) }

@inline(never) func runMutex(_ box: WithMutex, _ n: Int) -> Int {
    for _ in 0..<n { box.m.withLock { $0 &+= 1 } }
    return box.m.withLock { $0 }
}
@inline(never) func runLock(_ box: WithLock, _ n: Int) -> Int {
    for _ in 0..<n { box.l.withLock { $0 &+= 1 } }
    return box.l.withLock { $0 }
}
func now() -> UInt64 {
    var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t);
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
let n = 20_000_000
var ratios: [Double] = []
var mutexNs: [Double] = [], lockNs: [Double] = []
for _ in 0..<9 {
    let a = WithMutex(), b = WithLock()
    let t0 = now(); _ = runMutex(a, n); let t1 = now(); _ = runLock(b, n); let t2 = now()
    let m = Double(t1 - t0) / Double(n), l = Double(t2 - t1) / Double(n)
    mutexNs.append(m); lockNs.append(l); ratios.append(l / m)
}
ratios.sort(); mutexNs.sort(); lockNs.sort()
print("uncontended withLock, \(n) per round, 9 rounds interleaved")
print(
    "Mutex median \(mutexNs[4]) ns/op, Lock median \(lockNs[4]) ns/op, Lock/Mutex median ratio \(ratios[4]) (min \(ratios[0]), max \(ratios[8]))"
)
