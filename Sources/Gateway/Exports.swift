// What Gateway's public API takes or hands out from the modules under it, so that `import Gateway`
// is all a team writes. Only these types, not their modules: the rest of those modules stays out
// of a team's namespace, and the package offers no product for them.
@_exported import struct ClientIdentity.Identity
@_exported import class HTTPBasics.HTTPBodyStream
@_exported import struct HTTPBasics.HTTPHeaders
@_exported import struct HTTPBasics.HTTPMethod
@_exported import struct HTTPBasics.HTTPStatus
@_exported import struct HTTPServerCore.QueryParameters
@_exported import struct Upstream.BaseURL
@_exported import struct Upstream.CacheSettings
@_exported import struct Upstream.CacheStatus
@_exported import struct Upstream.EncodedTarget
@_exported import struct Upstream.InvalidBaseURL
@_exported import enum Upstream.InvalidPathSegment
@_exported import enum Upstream.InvalidTarget
@_exported import struct Upstream.Origin
@_exported import struct Upstream.Path
@_exported import struct Upstream.QueryItem
@_exported import struct Upstream.Request
@_exported import struct Upstream.Response
@_exported import enum Upstream.ResponseVerdict
@_exported import struct Upstream.TransportRequest
@_exported import protocol Upstream.UpstreamAction
@_exported import enum Upstream.UpstreamError
@_exported import struct Upstream.UpstreamFailure
