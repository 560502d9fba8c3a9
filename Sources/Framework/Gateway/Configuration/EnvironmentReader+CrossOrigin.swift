import HTTPBasics

extension EnvironmentReader {
    /// The CORS policy of the `CORS_*` variables, or nil when `CORS_ALLOWED_ORIGINS` is unset or
    /// empty (then no other `CORS_*` variable may be set). A `CORS_` variable of another name is
    /// refused too: a typo would leave CORS off, or a default in force, without a word.
    func crossOriginPolicy() throws(ConfigurationError) -> CrossOriginPolicy? {
        let known = Set(ConfigurationVariable.crossOrigin.map(\.name))
        if let unknown = environment.keys.filter({ $0.hasPrefix("CORS_") && !known.contains($0) }).sorted().first {
            let suggestion = UpstreamVariableCheck.closest(to: unknown, among: known).map { "; did you mean \($0)?" } ?? ""
            throw ConfigurationError(variable: unknown, problem: "is not a CORS variable\(suggestion)")
        }
        let originsText = Substring(text(.crossOriginAllowedOrigins)).trimmingWhitespace
        guard !originsText.isEmpty else {
            for variable in ConfigurationVariable.crossOrigin.dropFirst() where environment[variable.name] != nil {
                throw ConfigurationError(variable: variable.name, problem: "needs CORS_ALLOWED_ORIGINS, which turns CORS on")
            }
            return nil
        }
        let allowsCredentials = try choice(.crossOriginAllowCredentials, from: ["on", "off"]) == "on"
        let origins: CrossOriginPolicy.Origins
        if originsText == "*" {
            guard !allowsCredentials else {
                throw ConfigurationError(
                    variable: ConfigurationVariable.crossOriginAllowedOrigins.name,
                    problem: "cannot be * with CORS_ALLOW_CREDENTIALS=on: a page of any site could then act with its visitor's cookies; list the origins")
            }
            origins = .any
        } else {
            var listed: [WebOrigin] = []
            for entry in list(.crossOriginAllowedOrigins) {
                do {
                    let origin = try WebOrigin(entry)
                    if !listed.contains(origin) { listed.append(origin) }
                } catch {
                    let shown = quoted(entry, of: .crossOriginAllowedOrigins)
                    throw ConfigurationError(
                        variable: ConfigurationVariable.crossOriginAllowedOrigins.name,
                        problem: "entry \(shown) \(error.reason) (* alone allows every origin)")
                }
            }
            origins = .listed(listed)
        }
        let headers = try fieldNames(.crossOriginAllowedHeaders, allowingStar: true)
        let exposed = try fieldNames(.crossOriginExposedHeaders, allowingStar: !allowsCredentials)
        let maxAge = try integer(.crossOriginMaxAge, in: 0...86_400_000)
        guard maxAge % 1000 == 0 else {
            throw ConfigurationError(
                variable: ConfigurationVariable.crossOriginMaxAge.name,
                problem: "must be whole seconds (a multiple of 1000): Access-Control-Max-Age counts seconds, got \(maxAge)")
        }
        return CrossOriginPolicy(
            origins: origins, allowedHeaders: headers == ["*"] ? .requested : .listed(headers.joined(separator: ", ")),
            allowsCredentials: allowsCredentials, exposedHeaders: exposed.isEmpty ? nil : exposed.joined(separator: ", "),
            maxAgeSeconds: maxAge / 1000)
    }

    /// The entries of a comma-separated list, trimmed, empty ones skipped.
    private func list(_ variable: ConfigurationVariable) -> [String] {
        text(variable).split(separator: ",").map { String($0.trimmingWhitespace) }.filter { !$0.isEmpty }
    }

    /// Field names separated by commas, each a token; `*` alone when `allowingStar`.
    private func fieldNames(_ variable: ConfigurationVariable, allowingStar: Bool) throws(ConfigurationError) -> [String] {
        let names = list(variable)
        if names.contains("*") {
            guard names == ["*"] else { throw ConfigurationError(variable: variable.name, problem: "must be * alone or a list of field names") }
            guard allowingStar else {
                throw ConfigurationError(variable: variable.name, problem: "cannot be * with CORS_ALLOW_CREDENTIALS=on, where browsers read it as a field named *")
            }
            return names
        }
        if let invalid = names.first(where: { !FieldSyntax.isToken($0) }) {
            throw ConfigurationError(variable: variable.name, problem: "entry \(quoted(invalid, of: variable)) is not a field name")
        }
        return names
    }
}
