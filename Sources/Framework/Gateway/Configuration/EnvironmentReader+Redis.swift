import NetworkRuntime
import RedisClient

extension EnvironmentReader {
    /// How to reach Redis from `REDIS_URL` and its companions; nil when `REDIS_URL` is unset (the
    /// companions must then be unset too). The URL's password is never quoted. Replies are held
    /// to `maximumEntryBytes` (the largest entry the gateway writes) and some room for RESP.
    func redis(maximumEntryBytes: Int) throws(ConfigurationError) -> RedisConfiguration? {
        let text = self.text(.redisURL)
        guard !text.isEmpty else {
            if let unused = [ConfigurationVariable.redisCAFile].first(where: { path($0) != nil }) {
                throw ConfigurationError(variable: unused.name, problem: "applies only with REDIS_URL")
            }
            return nil
        }
        let url: RedisURL
        do {
            url = try RedisURL(parsing: text)
        } catch {
            throw ConfigurationError(variable: ConfigurationVariable.redisURL.name, problem: error.reason)
        }
        let commandTimeout = try milliseconds(.redisTimeout, in: 1...60_000)
        let connectTimeout = try milliseconds(.redisConnectTimeout, in: 1...60_000)
        var tls: TLSContext?
        if let authorities = path(.redisCAFile) {
            guard url.usesTLS else { throw ConfigurationError(variable: ConfigurationVariable.redisCAFile.name, problem: "applies only to rediss://") }
            do {
                tls = try .client(trustedCertificatesFile: authorities)
            } catch {
                throw ConfigurationError(variable: ConfigurationVariable.redisCAFile.name, problem: Self.problem(error))
            }
        } else if url.usesTLS {
            do {
                tls = try systemTrust.context()
            } catch {
                throw ConfigurationError(variable: ConfigurationVariable.redisURL.name, problem: Self.problem(error))
            }
        }
        return RedisConfiguration(
            url: url, connectTimeout: connectTimeout, commandTimeout: commandTimeout, tls: tls, maximumReplyBytes: maximumEntryBytes + 1024)
    }
}
