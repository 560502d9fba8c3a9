import Dispatch
import Foundation
import Gateway
import ProcessTuning
import ReferenceScenario

// Not an async main: that parks the main thread in libdispatch's `dispatchMain`
// (`_dispatch_sig_thread`, in sigsuspend), where valgrind 3.19 crashes, so the gateway could not
// be profiled with callgrind. Nothing here uses the main queue; the command runs in a task that
// ends the process, and the main thread only waits.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
MallocTuning.apply()
// Twice: what loading and library initialisers touched, before setting up adds to it, and
// what setting up touched, once the gateway is ready.
StartupPages.release()
Task.detached {
    let status = await GatewayCommand.run(
        arguments: arguments, environment: environment, catalog: .reference, catalogSwitch: .referenceEndpoints, demo: { try DemoUpstreams() },
        whenListening: { StartupPages.release() })
    exit(status)
}
DispatchSemaphore(value: 0).wait()
