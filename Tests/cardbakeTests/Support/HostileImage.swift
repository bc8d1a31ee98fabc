import Foundation

/// An image a card must fail on (issue 4's list): how a test makes it, and how the card's reason begins.
struct HostileImage: Sendable, CustomStringConvertible {
    var id: String
    /// The file's name in the catalog's `images/`.
    var file: String
    /// Puts the file, or whatever stands in its place, at the given location.
    var make: @Sendable (URL) throws -> Void
    /// The start of the card's reason, given the image's absolute path. What follows from libvips'
    /// own text is not checked: libvips' error buffer is shared by all threads, so a card failing at
    /// the same time as another can get part of its text, or none.
    var reason: @Sendable (String) -> String
    /// Words the reason must contain besides.
    var mentions: [String] = []

    var description: String { id }

    static let fixtures = CardbakeBinary.repositoryRoot.appendingPathComponent("Tests/CardBakeTests/Fixtures")

    static let all: [HostileImage] = [
        HostileImage(id: "truncated-jpeg", file: "truncated.jpg", make: prefix(ofDemo: "astronaut.jpg", bytes: 3000),
                     reason: { "cannot decode image \($0): " }),
        HostileImage(id: "truncated-png", file: "truncated.png", make: prefix(ofDemo: "retina-cutout.png", bytes: 20_000),
                     reason: { "cannot decode image \($0): " }),
        HostileImage(id: "zero-bytes", file: "empty.jpg", make: { try Data().write(to: $0) },
                     reason: { "cannot decode image \($0): the file is empty." }),
        HostileImage(id: "random-bytes", file: "random.jpg", make: { try randomBytes.write(to: $0) },
                     reason: { "cannot decode image \($0): its contents are not in any image format libvips reads" }),
        HostileImage(id: "text-as-png", file: "notes.png", make: { try Data("Not an image.\n".utf8).write(to: $0) },
                     reason: { "cannot decode image \($0): its contents are not in any image format libvips reads" }),
        HostileImage(id: "directory", file: "folder.jpg",
                     make: { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: false) },
                     reason: { "cannot read image \($0): is a directory." }),
        HostileImage(id: "unreadable", file: "secret.jpg",
                     make: { url in
                         try copy("orientation-1.jpg")(url)
                         try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
                     },
                     reason: { "cannot read image \($0): permission denied." }),
        HostileImage(id: "dangling-symlink", file: "dangling.jpg",
                     make: { try FileManager.default.createSymbolicLink(atPath: $0.path, withDestinationPath: "gone.jpg") },
                     reason: { "cannot read image \($0): no such file or directory." }),
        HostileImage(id: "decompression-bomb", file: "bomb.png", make: copy("bomb.png"),
                     reason: { "image \($0) is 100000 × 100000 pixels, over the limit of 100000000 pixels" },
                     mentions: ["--max-pixels"]),
        HostileImage(id: "untrusted-format", file: "drawing.svg", make: copy("untrusted.svg"),
                     reason: { "cannot decode image \($0): its format is read only by libvips' loader svgload_buffer" },
                     mentions: ["untrusted", "blocks"]),
    ]

    static func copy(_ fixture: String) -> @Sendable (URL) throws -> Void {
        { try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: $0) }
    }

    static func prefix(ofDemo name: String, bytes: Int) -> @Sendable (URL) throws -> Void {
        { try Data(contentsOf: CardbakeBinary.demoImages.appendingPathComponent(name)).prefix(bytes).write(to: $0) }
    }

    /// 4 KiB from a fixed-seed SplitMix64: the same "random" bytes on every run.
    static var randomBytes: Data {
        var state: UInt64 = 0x5EED
        return Data((0..<4096).map { _ -> UInt8 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        })
    }
}
