extension ConfigurationVariable {
    static func upstreamOAuth2TokenURL(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "OAUTH2_TOKEN_URL", default: "",
            "OAuth2 token endpoint; with _CLIENT_ID and _CLIENT_SECRET, \(upstream.name) gets client-credentials tokens")
    }

    static func upstreamOAuth2ClientID(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "OAUTH2_CLIENT_ID", default: "", "OAuth2 client id for \(upstream.name)", isSecret: true)
    }

    static func upstreamOAuth2ClientSecret(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "OAUTH2_CLIENT_SECRET", default: "", "OAuth2 client secret for \(upstream.name)", isSecret: true)
    }

    static func upstreamOAuth2Scope(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "OAUTH2_SCOPE", default: "", "OAuth2 scope asked for \(upstream.name)'s tokens, if any")
    }

    /// The OAuth2 variables of one upstream, in the order `--help` lists them.
    static func oauth2(for upstream: UpstreamDefinition) -> [ConfigurationVariable] {
        [upstreamOAuth2TokenURL(upstream), upstreamOAuth2ClientID(upstream), upstreamOAuth2ClientSecret(upstream), upstreamOAuth2Scope(upstream)]
    }
}
