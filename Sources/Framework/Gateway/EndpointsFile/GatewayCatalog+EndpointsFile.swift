extension GatewayCatalog {
    /// This catalog with the file's upstreams, endpoints and proxy routes after its own; of the
    /// upstreams on offer, those the file uses are served, before the file's own.
    func adding(_ file: EndpointsFile) -> GatewayCatalog {
        let used = Set(file.endpoints.flatMap(\.upstreams) + file.proxies.map(\.upstream))
        let (taken, left) = (upstreamsOnOffer.filter { used.contains($0.name) }, upstreamsOnOffer.filter { !used.contains($0.name) })
        return GatewayCatalog(
            upstreams: upstreams + taken + file.upstreams, endpoints: endpoints + file.endpoints, proxies: proxies + file.proxies,
            upstreamsOnOffer: left)
    }
}
