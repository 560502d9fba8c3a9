import Forecast
import Foundation
import Gateway

// Serves the weather catalog with the framework's configuration, operations routes, metrics,
// logs and graceful shutdown: `weather-gateway --help` lists the variables.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
Task.detached {
    exit(await GatewayCommand.run(arguments: arguments, environment: environment, catalog: .weather))
}
DispatchSemaphore(value: 0).wait()
