extension GatewayCatalog {
    /// This catalog with the file's upstreams and endpoints after its own.
    func adding(_ file: EndpointsFile) -> GatewayCatalog {
        GatewayCatalog(upstreams: upstreams + file.upstreams, endpoints: endpoints + file.endpoints)
    }
}
