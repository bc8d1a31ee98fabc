import CardBakeManifest
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Each bitmap on disk once: an output file is a hard link to the cache's blob, and whatever is done
/// to either (an image optimiser rewriting the output in place or renaming over it, `cache gc`,
/// `clean`) no build ships or shares bytes that do not hash to their name.
@Suite("Each bitmap on disk once")
struct SharedBitmapTests {
    static let cards = threeCards
    static let build = ["build", "catalog.json", "--output", "OUT", "--cache-dir", "C", "--report", "report.json"]
    /// The card whose bitmap the tests edit, and its file.
    static let edited = threeCards[1]
    static let editedFile = "OUT/cards/\(threeCards[1].id)@1x.jpg"

    @Test("Output and cache together take at most 1.2x the output's blocks, a hard-linked inode counted once")
    func diskUse() throws {
        try Sandbox.with { sandbox in
            // Given a catalog of cards at the default width, each with its own text
            let images = ["coffee.jpg", "astronaut.jpg", "chelsea.jpg", "rocket.jpg"]
            let cards = (0..<12).map { CardSpec("card-\($0)", image: images[$0 % images.count], title: "Card number \($0)") }
            try sandbox.writeCatalog(cards, style: ["scales": [1, 2, 3]])

            // When
            let result = try sandbox.run(Self.build)

            // Then every bitmap shares its inode with the cache's blob, and the two folders are not much
            // more than the output alone
            #expect(result.status == 0, result.comment)
            let bitmaps = FolderAudit.files(in: sandbox.url("OUT/cards"))
            #expect(bitmaps.count == cards.count * 3)
            for bitmap in bitmaps {
                #expect(DiskUse.links(of: sandbox.url("OUT/cards/\(bitmap)")) == 2, "\(bitmap) is not linked to the cache")
            }
            let output = DiskUse.bytes(under: [sandbox.url("OUT")])
            let both = DiskUse.bytes(under: [sandbox.url("OUT"), sandbox.url("C")])
            #expect(Double(both) <= 1.2 * Double(output), "output \(output) bytes, output and cache \(both)")
        }
    }

    @Test("A bitmap an optimiser rewrote in place (mtime put back) is replaced, and the blob it shared not served",
          arguments: [false, true])
    func editedInPlace(sameSize: Bool) throws {
        try Sandbox.with { sandbox in
            // Given a build, then one bitmap rewritten in place as an optimiser might: truncated and
            // written, its mtime put back (its ctime cannot be)
            try sandbox.writeCatalog(Self.cards)
            try #require(try sandbox.run(Self.build).status == 0)
            let original = try sandbox.data(Self.editedFile)
            let edited = sameSize ? Data(original.map { $0 ^ 0x5a }) : original.prefix(original.count / 2)
            try DiskUse.rewriteInPlace(sandbox.url(Self.editedFile), with: edited)
            #expect(!FolderAudit.cache(sandbox.url("C")).isEmpty, "the edit did not reach the cache's blob")

            // When
            let result = try sandbox.run(Self.build)

            // Then the card is rendered again (the shared blob was checked and refused), its file holds
            // the original bytes, the manifest lists them, and the cache is whole again
            #expect(result.status == 0, result.comment)
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.card(Self.edited.id)?.status == "rendered", result.comment)
            #expect(report.cards.filter { $0.status == "cached" }.count == Self.cards.count - 1, result.comment)
            #expect(try sandbox.data(Self.editedFile) == original)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url("C")) == [])
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            let listed = try #require(manifest.cards.first { $0.id == Self.edited.id }?.images["1x"])
            #expect(listed.sha256 == ContentDigest.sha256(try sandbox.data(Self.editedFile)).description)
            #expect(try sandbox.run(["check", "catalog.json", "--output", "OUT", "--cache-dir", "C"]).status == 0)
        }
    }

    @Test("A bitmap replaced by a rename in the output is restored from the cache, which stays intact")
    func replacedByRename() throws {
        try Sandbox.with { sandbox in
            // Given a build, then one bitmap replaced by a new file renamed over it
            try sandbox.writeCatalog(Self.cards)
            try #require(try sandbox.run(Self.build).status == 0)
            let original = try sandbox.data(Self.editedFile)
            try sandbox.write(Data(original.prefix(original.count / 2)), to: "OUT/cards/optimised.tmp")
            #expect(rename(sandbox.url("OUT/cards/optimised.tmp").path, sandbox.url(Self.editedFile).path) == 0)
            #expect(FolderAudit.cache(sandbox.url("C")) == [])

            // When
            let result = try sandbox.run(Self.build)

            // Then nothing is rendered: the cache's blob, untouched, is linked back
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 0, cached: 3, failed: 0), result.comment)
            #expect(try sandbox.data(Self.editedFile) == original)
            #expect(DiskUse.links(of: sandbox.url(Self.editedFile)) == 2)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url("C")) == [])
        }
    }

    @Test("After cache gc down to 0, a build restores a removed and an edited bitmap")
    func collectedToZero() throws {
        try Sandbox.with { sandbox in
            // Given a build, its cache collected to nothing, then one bitmap removed and one edited in place
            try sandbox.writeCatalog(Self.cards)
            try #require(try sandbox.run(Self.build).status == 0)
            let originals = try Dictionary(uniqueKeysWithValues: Self.cards.map {
                ($0.id, try sandbox.data("OUT/cards/\($0.id)@1x.jpg"))
            })
            let gc = try sandbox.run(["cache", "gc", "--max-size", "0", "--cache-dir", "C"])
            try #require(gc.status == 0, gc.comment)
            #expect(FolderAudit.files(in: sandbox.url("C/cas")).isEmpty)
            try sandbox.remove("OUT/cards/\(Self.cards[0].id)@1x.jpg")
            try DiskUse.rewriteInPlace(sandbox.url(Self.editedFile), with: Data(originals[Self.edited.id]!.reversed()))

            // When
            let result = try sandbox.run(Self.build)

            // Then every card is rendered again (gc took their facts too), and every file is the one the
            // manifest lists, with the bytes of the first build
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 3, cached: 0, failed: 0), result.comment)
            for card in Self.cards {
                #expect(try sandbox.data("OUT/cards/\(card.id)@1x.jpg") == originals[card.id], "\(card.id) differs")
            }
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url("C")) == [])
        }
    }

    @Test("clean --only output leaves the cache intact and usable: the next build renders nothing")
    func cleanKeepsCache() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Self.cards)
            try #require(try sandbox.run(Self.build).status == 0)
            let originals = try FolderAudit.files(in: sandbox.url("OUT/cards")).map { try sandbox.data("OUT/cards/\($0)") }

            // When
            let clean = try sandbox.run(["clean", "--only", "output", "--output", "OUT", "--cache-dir", "C"])

            // Then
            #expect(clean.status == 0, clean.comment)
            #expect(FolderAudit.files(in: sandbox.url("OUT")).isEmpty)
            #expect(FolderAudit.cache(sandbox.url("C")) == [])
            #expect(!FolderAudit.files(in: sandbox.url("C/cas")).isEmpty)

            // and when built again
            let result = try sandbox.run(Self.build)
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 0, cached: 3, failed: 0), result.comment)
            #expect(try FolderAudit.files(in: sandbox.url("OUT/cards")).map { try sandbox.data("OUT/cards/\($0)") } == originals)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
        }
    }
}

/// Disk use as `du` counts it, and the file operations of an image optimiser.
enum DiskUse {
    /// The bytes of the blocks allocated to the files under `folders`, each inode counted once however
    /// many names it has (`du`'s rule).
    static func bytes(under folders: [URL]) -> Int64 {
        var seen: Set<[UInt64]> = []
        var total: Int64 = 0
        for folder in folders {
            for file in FolderAudit.files(in: folder) {
                var info = stat()
                guard lstat(folder.appendingPathComponent(file).path, &info) == 0,
                      seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
                total += Int64(info.st_blocks) * 512
            }
        }
        return total
    }

    /// The number of names the file at `url` has.
    static func links(of url: URL) -> Int {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return 0 }
        return Int(info.st_nlink)
    }

    /// Truncates the file at `url` and writes `data` into it, keeping its inode, then puts its
    /// modification time back, as an image optimiser that rewrites files in place might.
    static func rewriteInPlace(_ url: URL, with data: Data) throws {
        var before = stat()
        guard lstat(url.path, &before) == 0 else { throw SandboxError("cannot stat \(url.path)") }
        let descriptor = open(url.path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw SandboxError("cannot open \(url.path)") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw SandboxError("cannot write \(url.path)") }
        var times = [before.st_atim, before.st_mtim]
        guard futimens(descriptor, &times) == 0 else { throw SandboxError("cannot set the times of \(url.path)") }
    }
}
