// What Upstream's public API takes or hands out from HTTPBasics, so that an app using the
// `UpstreamKit` product alone needs no other import (the package offers no HTTPBasics product).
@_exported import struct HTTPBasics.HTTPHeaders
@_exported import struct HTTPBasics.HTTPMethod
@_exported import struct HTTPBasics.HTTPStatus
