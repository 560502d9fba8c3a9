extension GatewayCatalog {
    /// This catalog with the file's upstreams, endpoints and proxy routes after its own.
    func adding(_ file: EndpointsFile) -> GatewayCatalog {
        GatewayCatalog(upstreams: upstreams + file.upstreams, endpoints: endpoints + file.endpoints, proxies: proxies + file.proxies)
    }
}
