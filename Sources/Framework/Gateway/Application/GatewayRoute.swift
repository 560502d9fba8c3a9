import HTTP1Server

/// One entry of the gateway's route table: its documentation and the handler that serves it.
/// The router is built from the table and the OpenAPI document generated from it.
struct GatewayRoute: Sendable {
    let documentation: RouteDocumentation
    let handler: Router<RequestScope>.Handler
}
