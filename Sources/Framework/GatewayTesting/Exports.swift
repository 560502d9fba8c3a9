// What a team's test names besides this module's own types: the framework it tests, and the
// response a `StubUpstream` answers with. `import GatewayTesting` is all a test needs.
@_exported import Gateway
@_exported import struct HTTPBasics.HTTPResponse
