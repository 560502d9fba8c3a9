extension ConfigurationVariable {
    static let tlsCertificateFile = ConfigurationVariable(
        "TLS_CERT_FILE", default: "", "PEM certificate chain to serve HTTPS with (leaf first); needs TLS_KEY_FILE")
    static let tlsKeyFile = ConfigurationVariable(
        "TLS_KEY_FILE", default: "", "unencrypted PEM private key of TLS_CERT_FILE")

    static func upstreamCAFile(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CA_FILE", default: "",
            "PEM certificate authorities that sign \(upstream.name)'s certificate, instead of the system's")
    }

    static func upstreamClientCertificateFile(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CLIENT_CERT_FILE", default: "",
            "PEM client certificate for mutual TLS with \(upstream.name); needs the CLIENT_KEY_FILE")
    }

    static func upstreamClientKeyFile(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CLIENT_KEY_FILE", default: "",
            "unencrypted PEM private key of \(upstream.name)'s client certificate")
    }
}
