// What Gateway's public API takes or hands out from the modules under it, so that `import Gateway`
// is all a team writes. Only these types, not their modules: the rest of those modules stays out
// of a team's namespace, and the package offers no product for them.
@_exported import struct CallerIdentity.Identity
@_exported import struct HTTP1Server.QueryParameters
@_exported import class HTTPBasics.HTTPBodyStream
@_exported import struct HTTPBasics.HTTPHeaders
@_exported import struct HTTPBasics.HTTPMethod
@_exported import struct HTTPBasics.HTTPStatus
@_exported import struct UpstreamKit.BaseURL
@_exported import struct UpstreamKit.CacheSettings
@_exported import struct UpstreamKit.CacheStatus
@_exported import struct UpstreamKit.EncodedTarget
@_exported import struct UpstreamKit.InvalidBaseURL
@_exported import enum UpstreamKit.InvalidPathSegment
@_exported import enum UpstreamKit.InvalidTarget
@_exported import struct UpstreamKit.Origin
@_exported import struct UpstreamKit.Path
@_exported import struct UpstreamKit.QueryItem
@_exported import struct UpstreamKit.Request
@_exported import struct UpstreamKit.Response
@_exported import enum UpstreamKit.ResponseVerdict
@_exported import struct UpstreamKit.TransportRequest
@_exported import protocol UpstreamKit.UpstreamAction
@_exported import enum UpstreamKit.UpstreamError
@_exported import struct UpstreamKit.UpstreamFailure
