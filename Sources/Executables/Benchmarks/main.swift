import Dispatch
import Glibc

// Release-mode micro-benchmarks; see BenchmarkCommand for the arguments.
//
// Not an async main: that parks the main thread in libdispatch's `dispatchMain`
// (`_dispatch_sig_thread`, in sigsuspend), where valgrind 3.19 crashes, and
// scripts/instructions-per-request runs this executable under callgrind. The command runs in a
// task that ends the process; the main thread only waits.
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached {
    exit(await BenchmarkCommand.run(arguments: arguments))
}
DispatchSemaphore(value: 0).wait()
