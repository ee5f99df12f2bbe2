import Foundation

/// The threads every launch server of a process answers on: a task executor of its own, so that
/// a server's answers never wait behind the other tasks of the process.
///
/// A server shares its process with the demo's screen, a command's export, or (in the tests)
/// dozens of suites at once, and Swift's cooperative pool has one thread per core: two here. A
/// task that keeps a pool thread busy (a model test, the import of a million rows) held a request
/// to a server in the same process past the client's read timeout, although the server had
/// nothing else to do. ``LaunchServer/start(_:)`` runs the server's service group with this
/// executor as its task executor preference, which the task groups below it (Hummingbird's one
/// per connection, the service group's one per service) pass on to every child task, and the
/// default actors they call run on it too. Unstructured tasks a handler starts run on the pool.
///
/// The threads are made on first use and live as long as the process; every server shares them,
/// and so do the tests' scripted servers.
package final class ServerThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `next` are only touched with `condition` locked.
    /// The one executor of the process, with two threads.
    package static let shared = ServerThreads(count: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in run() }
            thread.name = "LaunchServer \(index + 1)"
            thread.start()
        }
    }

    /// Queues a job; a thread of the executor runs it.
    /// - Complexity: O(1) amortized.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// One thread's loop: runs the queued jobs in order, waits while there are none.
    private func run() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 1024, next * 2 >= jobs.count {
                // A queue that never empties: drop the jobs run, half of it at least.
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
