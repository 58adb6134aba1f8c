import FactoryhostSupport
import Testing

@Suite("Reading directories")
struct DirectoryTests {
    @Test func entriesAreSortedWithoutDotsAndHiddenOnesOnRequest() throws {
        var template = Array("/tmp/fh-directory-XXXXXX".utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        let root = try #require(made)
        defer { _ = system("rm -rf '\(root)'") }
        for name in ["b.lua", ".hidden", "a", String(repeating: "n", count: 200)] {
            #expect(mkdir(root + "/" + name, 0o755) == 0)
        }
        let file = fopen(root + "/c.txt", "w")
        #expect(file != nil)
        if let file { fclose(file) }
        #expect(Directory.entries(root) == [".hidden", "a", "b.lua", "c.txt", String(repeating: "n", count: 200)])
        #expect(Directory.entries(root, hidden: false) == ["a", "b.lua", "c.txt", String(repeating: "n", count: 200)])
        #expect(Directory.entries(root + "/missing") == nil)
        #expect(Directory.isDirectory(root + "/a") && !Directory.isRegularFile(root + "/a"))
        #expect(Directory.isRegularFile(root + "/c.txt") && !Directory.isDirectory(root + "/c.txt"))
        #expect(!Directory.isDirectory(root + "/missing") && !Directory.isRegularFile(root + "/missing"))
    }

    @Test func durationsInSeconds() {
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.zero.inSeconds == 0)
        #expect(Duration.nanoseconds(-2).inSeconds == -2e-9)
    }
}
