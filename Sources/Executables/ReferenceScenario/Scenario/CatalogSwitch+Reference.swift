public import Gateway
extension CatalogSwitch {
    /// `GATEWAY_REFERENCE_ENDPOINTS`: `off` serves the endpoints file's routes without the
    /// reference endpoints; deck, swapi and menu stay available to the file.
    public static let referenceEndpoints = CatalogSwitch(
        variable: "GATEWAY_REFERENCE_ENDPOINTS",
        summary: "off: serve the endpoints file's routes alone, without /v1/menu, /v1/people/{id} and /v1/deal")
}
