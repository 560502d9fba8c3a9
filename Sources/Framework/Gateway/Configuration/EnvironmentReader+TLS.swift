import NetworkRuntime
import UpstreamKit

extension EnvironmentReader {
    /// One client context verifying against the system's trust store, made on first use: each
    /// context loads and keeps the whole store, which costs milliseconds and memory, so upstreams
    /// without a CA file or client certificate of their own share it (and its resumable sessions,
    /// which are kept per origin).
    final class SystemTrust {
        private var loaded: TLSContext?

        func context() throws(TLSConfigurationError) -> TLSContext {
            if let loaded { return loaded }
            let context = try TLSContext.client()
            loaded = context
            return context
        }
    }

    /// The server's TLS context from `TLS_CERT_FILE` and `TLS_KEY_FILE`, nil when neither is set.
    func serverTLS() throws(ConfigurationError) -> TLSContext? {
        switch (path(.tlsCertificateFile), path(.tlsKeyFile)) {
        case (nil, nil):
            return nil
        case (nil, _):
            throw ConfigurationError(variable: ConfigurationVariable.tlsCertificateFile.name, problem: "must be set with TLS_KEY_FILE")
        case (_, nil):
            throw ConfigurationError(variable: ConfigurationVariable.tlsKeyFile.name, problem: "must be set with TLS_CERT_FILE")
        case (let certificate?, let key?):
            return try serverTLS(certificateFile: certificate, keyFile: key)
        }
    }

    private func serverTLS(certificateFile: String, keyFile: String) throws(ConfigurationError) -> TLSContext {
        do {
            return try .server(certificateFile: certificateFile, privateKeyFile: keyFile)
        } catch {
            let variable: ConfigurationVariable = error.file == .privateKey ? .tlsKeyFile : .tlsCertificateFile
            throw ConfigurationError(variable: variable.name, problem: Self.problem(error))
        }
    }

    /// The TLS context for calls to `upstream` at `baseURL`: nil for an `http` URL (where its TLS
    /// variables must be unset), else the system's trust or `UPSTREAM_{NAME}_CA_FILE`, with the
    /// client certificate if one is given.
    func upstreamTLS(_ upstream: UpstreamDefinition, baseURL: BaseURL) throws(ConfigurationError) -> TLSContext? {
        let caFile = ConfigurationVariable.upstreamCAFile(upstream)
        let certificateFile = ConfigurationVariable.upstreamClientCertificateFile(upstream)
        let keyFile = ConfigurationVariable.upstreamClientKeyFile(upstream)
        let (authorities, certificate, key) = (path(caFile), path(certificateFile), path(keyFile))
        guard baseURL.origin.scheme == "https" else {
            if let unused = [(caFile, authorities), (certificateFile, certificate), (keyFile, key)].first(where: { $0.1 != nil }) {
                throw ConfigurationError(variable: unused.0.name, problem: "applies only to an https upstream URL")
            }
            return nil
        }
        do {
            if authorities == nil, certificate == nil, key == nil { return try systemTrust.context() }
            return try .client(trustedCertificatesFile: authorities, certificateFile: certificate, privateKeyFile: key)
        } catch {
            let variable = switch error.file {
            case .trustedCertificates, .none: caFile
            case .certificate: certificateFile
            case .privateKey: keyFile
            }
            throw ConfigurationError(variable: variable.name, problem: Self.problem(error))
        }
    }

    /// The TLS context for calls to `url` (a provider, a collector): nil for an `http` URL (where
    /// `authorities` must be unset), else the system's trust, or the CAs of the file `authorities`
    /// names; `what` says what the file is for when it is set in vain.
    func clientTLS(for url: BaseURL, authorities variable: ConfigurationVariable, of what: String) throws(ConfigurationError) -> TLSContext? {
        let authorities = path(variable)
        guard url.origin.scheme == "https" else {
            if authorities != nil { throw ConfigurationError(variable: variable.name, problem: "applies only to \(what)") }
            return nil
        }
        do {
            guard let authorities else { return try systemTrust.context() }
            return try .client(trustedCertificatesFile: authorities, certificateFile: nil, privateKeyFile: nil)
        } catch {
            throw ConfigurationError(variable: variable.name, problem: Self.problem(error))
        }
    }

    /// The path in `variable`, nil when it is unset or empty.
    func path(_ variable: ConfigurationVariable) -> String? {
        let value = text(variable)
        return value.isEmpty ? nil : value
    }

    /// What follows the variable's name: the reason alone, since the variable names the file.
    static func problem(_ error: TLSConfigurationError) -> String {
        error.file == .none ? error.description : error.reason
    }
}
