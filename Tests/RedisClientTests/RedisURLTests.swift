import RedisClient
import Testing

@Suite("REDIS_URL")
struct RedisURLTests {
    @Test("a full URL gives every part, percent-decoded")
    func full() throws {
        let url = try RedisURL(parsing: "rediss://alice:p%40ss%3Aw0rd@cache.internal:6380/3")
        #expect(url.usesTLS)
        #expect(url.host == "cache.internal")
        #expect(url.port == 6380)
        #expect(url.user == "alice")
        #expect(url.password == "p@ss:w0rd")
        #expect(url.database == 3)
        #expect(url.description == "rediss://alice:(set)@cache.internal:6380/3")
        #expect(!"\(url)".contains("p@ss"))
    }

    @Test("defaults: port 6379, database 0, no credentials")
    func defaults() throws {
        let url = try RedisURL(parsing: "redis://127.0.0.1")
        #expect(!url.usesTLS && url.port == 6379 && url.database == 0 && url.user == nil && url.password == nil)
        #expect(try RedisURL(parsing: "redis://h/").database == 0)
        #expect(try RedisURL(parsing: "redis://:secret@h").password == "secret")
        #expect(try RedisURL(parsing: "redis://:secret@h").user == nil)
        #expect(try RedisURL(parsing: "redis://[::1]:7000/1").host == "::1")
        #expect(try RedisURL(parsing: "redis://[::1]:7000/1").description == "redis://[::1]:7000/1")
    }

    @Test(
        "malformed URLs fail without quoting the password",
        arguments: [
            "", "http://h", "redis:/h", "redis://", "redis://:pw@", "redis://h:0", "redis://h:65536", "redis://h:x", "redis://h/x",
            "redis://h/1/2", "redis://h?db=1", "redis://h#f", "redis://u:%zz@h", "redis://h h", "redis://[::1", "redis://[::1]x", "redis://secret@h", "redis://u:@h", "redis://:@h",
        ])
    func malformed(text: String) {
        do {
            _ = try RedisURL(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(!error.reason.contains("%zz"))
        }
    }
}
