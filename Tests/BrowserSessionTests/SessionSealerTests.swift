import Testing

@testable import BrowserSession

@Suite("Sealed session records")
struct SessionSealerTests {
    private static let keyA = try! SessionSealer.Key(parsing: "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=")
    private static let keyB = try! SessionSealer.Key(parsing: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")

    private static let record = SessionRecord(
        id: "s-1", subject: "alice", providerSessionID: "sid-9", claimsJSON: #"{"sub":"alice","name":"Alice é"}"#, idToken: "id.token.sig",
        accessToken: "access-secret", accessTokenExpiresAt: 1_800_000_000.5, refreshToken: nil, createdAt: 1_700_000_000,
        lastSeenAt: 1_700_000_010.25)

    @Test("a sealed record opens to itself, and holds no token in the clear")
    func roundTrip() throws {
        let sealer = SessionSealer(current: Self.keyA)
        let sealed = sealer.seal(Self.record)
        #expect(try sealer.open(sealed, id: "s-1") == Self.record)
        let text = String(decoding: sealed, as: UTF8.self)
        #expect(!text.contains("access-secret") && !text.contains("alice"))
        #expect(sealer.seal(Self.record) != sealed, "a fresh nonce each time")
    }

    @Test("during a rotation the previous key still opens; after it, a record of the old key is unknown")
    func rotation() throws {
        let sealed = SessionSealer(current: Self.keyA).seal(Self.record)
        #expect(try SessionSealer(current: Self.keyB, previous: Self.keyA).open(sealed, id: "s-1") == Self.record)
        #expect(throws: SessionSealer.OpenError.unknownKey) { try SessionSealer(current: Self.keyB).open(sealed, id: "s-1") }
    }

    @Test("an altered byte, another session's id, a cut or empty input each fail, never crash")
    func refusals() {
        let sealer = SessionSealer(current: Self.keyA)
        let sealed = sealer.seal(Self.record)
        for index in [0, 3, 6, 20, sealed.count - 1] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: SessionSealer.OpenError.self) { try sealer.open(altered, id: "s-1") }
        }
        #expect(throws: SessionSealer.OpenError.forged) { try sealer.open(sealed, id: "s-2") }
        #expect(throws: SessionSealer.OpenError.forged) { try sealer.open(Array(sealed.dropLast(3)), id: "s-1") }
        #expect(throws: SessionSealer.OpenError.malformed) { try sealer.open([], id: "s-1") }
        #expect(throws: SessionSealer.OpenError.malformed) { try sealer.open([1, 2, 3], id: "s-1") }
    }

    @Test("a pending sign-in sealed for its cookie opens on any replica with the key, and is never taken for a session")
    func pendingSignIns() throws {
        let sealer = SessionSealer(current: Self.keyA)
        let signIn = PendingSignIn(state: "st", nonce: "no", codeVerifier: "ve", returnURL: "/app?x=1", deadline: 1_700_000_600)
        let cookie = sealer.sealForCookie(signIn)
        #expect(cookie.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") })
        #expect(!cookie.contains("/app"))
        #expect(try SessionSealer(current: Self.keyB, previous: Self.keyA).openCookie(cookie) == signIn)
        #expect(throws: SessionSealer.OpenError.unknownKey) { try SessionSealer(current: Self.keyB).openCookie(cookie) }
        #expect(throws: SessionSealer.OpenError.malformed) { try sealer.openCookie("not base64url!") }
        let session = ProofKey.base64URL(sealer.seal(Self.record))
        #expect(throws: SessionSealer.OpenError.forged) { try sealer.openCookie(session) }
    }

    @Test("keys: 32 bytes in base64 or base64url, padded or not; anything else a clear error that quotes nothing")
    func keys() {
        #expect(throws: SessionSealer.KeyError.wrongLength(16)) { try SessionSealer.Key(parsing: "AAECAwQFBgcICQoLDA0ODw==") }
        #expect(throws: SessionSealer.KeyError.notBase64) { try SessionSealer.Key(parsing: "not a key!") }
        #expect(throws: SessionSealer.KeyError.wrongLength(0)) { try SessionSealer.Key(parsing: "") }
        #expect(SessionSealer.KeyError.wrongLength(16).description.contains("32 bytes"))
        #expect(Self.keyB == (try? SessionSealer.Key(parsing: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")))
    }

    @Test("record bytes: a round trip with every optional absent, and no cut of them decodes")
    func coding() {
        var record = Self.record
        record.providerSessionID = nil
        record.accessTokenExpiresAt = nil
        record.refreshToken = "refresh"
        let bytes = SessionRecordCoding.encode(record)
        #expect(SessionRecordCoding.decode(bytes) == record)
        for length in 0..<bytes.count { #expect(SessionRecordCoding.decode(Array(bytes.prefix(length))) == nil) }
        #expect(SessionRecordCoding.decode(bytes + [0]) == nil)
    }
}
