import NetworkRuntime
import Testing

@Suite("TLSContext files")
struct TLSContextTests {
    func failure(_ make: () throws(TLSConfigurationError) -> TLSContext) -> TLSConfigurationError? {
        do {
            _ = try make()
            return nil
        } catch {
            return error
        }
    }

    @Test func namesAMissingFile() {
        let error = failure { () throws(TLSConfigurationError) in try .client(trustedCertificatesFile: "/nonexistent/ca.pem") }
        #expect(error == TLSConfigurationError(file: .trustedCertificates, reason: "cannot be read (No such file or directory)"))
    }

    @Test func refusesAFileWithoutCertificates() {
        let key = TestCertificates.path("server.key")
        #expect(failure { () throws(TLSConfigurationError) in try .client(trustedCertificatesFile: key) }?.file == .trustedCertificates)
        #expect(failure { () throws(TLSConfigurationError) in try .server(certificateFile: key, privateKeyFile: key) }?.file == .certificate)
    }

    @Test func refusesAKeyThatIsNotOneOrDoesNotMatch() {
        let certificate = TestCertificates.path("server.pem")
        let notAKey = failure { () throws(TLSConfigurationError) in try .server(certificateFile: certificate, privateKeyFile: certificate) }
        #expect(notAKey?.file == .privateKey)
        let otherKey = failure { () throws(TLSConfigurationError) in
            try .server(certificateFile: certificate, privateKeyFile: TestCertificates.path("client.key"))
        }
        #expect(otherKey == TLSConfigurationError(
            file: .privateKey, reason: "holds no unencrypted PEM private key of the certificate (key values mismatch)"))
        #expect(otherKey?.description.contains("BEGIN") == false)
    }

    @Test func needsACertificateAndItsKeyTogether() {
        let error = failure { () throws(TLSConfigurationError) in
            try .client(trustedCertificatesFile: TestCertificates.path("ca.pem"), certificateFile: TestCertificates.path("client.pem"))
        }
        #expect(error?.file == .privateKey)
    }
}
