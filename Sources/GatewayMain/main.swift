import Foundation
import Gateway

exit(await GatewayCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
