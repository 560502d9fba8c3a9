import Glibc

// Release-mode micro-benchmarks; see BenchmarkCommand for the arguments.
exit(await BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
