import CardBake
import CardBakeManifest
import Foundation
import Testing

/// `make dist`'s tarball as a user gets it: unpacked into an empty folder outside the checkout and
/// run with a clean environment, without the Swift toolchain on any path. `make test` runs
/// `make dist` before the tests; the release build it needs is the one `make cards` uses.
@Suite("Distribution tarball")
struct DistTests {
    #if arch(x86_64)
    static let architecture = "x86_64"
    #elseif arch(arm64)
    static let architecture = "aarch64"
    #else
    static let architecture = "unknown"
    #endif

    static let name = "cardbake-\(Builder.version)-linux-\(architecture)"
    static let tarball = CardbakeBinary.repositoryRoot.appendingPathComponent("dist/\(name).tar.gz")

    /// The tarball unpacked into `<sandbox>/unpacked`; returns its folder.
    static func unpack(into sandbox: Sandbox) throws -> URL {
        try #require(FileManager.default.fileExists(atPath: tarball.path),
                     "\(tarball.path) is missing: run make dist (make test runs it before the tests)")
        let root = CardbakeBinary.repositoryRoot.standardizedFileURL.path + "/"
        try #require(!sandbox.root.path.hasPrefix(root), "the sandbox \(sandbox.root.path) is inside the checkout")
        let target = sandbox.root.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let tar = try command("/bin/tar", ["-xzf", tarball.path, "-C", target.path], sandbox: sandbox)
        try #require(tar.status == 0, "tar: \(tar.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path)
        try #require(names == [name], "the tarball holds \(names), not one folder \(name)")
        return target.appendingPathComponent(name)
    }

    /// Runs a command to its end; stdout and stderr together.
    static func command(_ executable: String, _ arguments: [String], sandbox: Sandbox,
                        environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let log = sandbox.logs.appendingPathComponent(UUID().uuidString)
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw SandboxError("cannot create \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    @Test("The tarball holds the executable, with the Swift runtime linked in, a README naming its runtime packages, and the licences")
    func contents() throws {
        try Sandbox.with { sandbox in
            let folder = try Self.unpack(into: sandbox)
            let binary = folder.appendingPathComponent("cardbake")
            #expect(FileManager.default.isExecutableFile(atPath: binary.path))

            // Nothing from the toolchain is linked, and every library it links is found here.
            let ldd = try Self.command("/usr/bin/ldd", [binary.path], sandbox: sandbox)
            #expect(ldd.status == 0, "\(ldd.output)")
            for toolchainLibrary in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "/opt/swift"] {
                #expect(!ldd.output.contains(toolchainLibrary), "\(ldd.output)")
            }
            #expect(!ldd.output.contains("not found"), "\(ldd.output)")
            for soname in ["libvips.so.42", "libpangocairo-1.0.so.0", "libpangoft2-1.0.so.0"] {
                #expect(ldd.output.contains(soname), "\(ldd.output)")
            }

            // The runtime packages: what it links, each a package this machine has installed under that name.
            let packages = try String(contentsOf: folder.appendingPathComponent("debian-packages"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            #expect(Set(packages).isSuperset(of: ["libvips42", "libpangocairo-1.0-0", "libpangoft2-1.0-0", "libfontconfig1",
                                                  "fonts-lato", "libc6"]), "\(packages)")
            let query = try Self.command("/usr/bin/dpkg-query", ["-W", "-f=${Package} ${Status}\n"] + packages, sandbox: sandbox)
            #expect(query.status == 0, "\(query.output)")
            #expect(query.output.split(separator: "\n").filter { $0.hasSuffix("install ok installed") }.count == packages.count,
                    "\(query.output)")
            let readme = try String(contentsOf: folder.appendingPathComponent("README"), encoding: .utf8)
            #expect(readme.contains("apt-get install --no-install-recommends " + packages.joined(separator: " ")), "\(readme)")
            #expect(readme.contains("./cardbake build"))

            // Licences: cardbake's, as in the repository; the Swift runtime's, ICU's, and those of the Swift packages linked in.
            let license = try String(contentsOf: folder.appendingPathComponent("LICENSE"), encoding: .utf8)
            #expect(license == (try String(contentsOf: CardbakeBinary.repositoryRoot.appendingPathComponent("LICENSE"), encoding: .utf8)))
            #expect(license.contains("Apache License") && license.contains("Copyright 2026 the cardbake authors"))
            for package in ["swift", "swift-argument-parser", "swift-system", "swift-collections"] {
                let license = folder.appendingPathComponent("licenses/\(package)/LICENSE.txt")
                let text = try #require(try? String(contentsOf: license, encoding: .utf8), "no licenses/\(package)/LICENSE.txt")
                #expect(text.contains("Apache License"), "\(package)")
            }
            // ICU, which Foundation embeds: the Unicode licence.
            let icu = try String(contentsOf: folder.appendingPathComponent("licenses/icu/copyright"), encoding: .utf8)
            #expect(icu.contains("Unicode, Inc.") && icu.contains("Permission is hereby granted"), "\(icu.prefix(300))")
        }
    }

    @Test("THIRD-PARTY-NOTICES names each component linked in, its licence and where the text is, and the system libraries' packages")
    func notices() throws {
        try Sandbox.with { sandbox in
            let folder = try Self.unpack(into: sandbox)
            let notices = try String(contentsOf: folder.appendingPathComponent("THIRD-PARTY-NOTICES"), encoding: .utf8)
            let parts = notices.components(separatedBy: "\nLinked dynamically")
            try #require(parts.count == 2, "no section of the libraries linked dynamically: \(notices)")
            let (inside, dynamic) = (parts[0], parts[1])

            // The Swift runtime's parts, each with the static libraries linked in and the licence's path.
            for (part, library, license) in [("Swift standard library and runtime", "libswiftCore.a", "swift/LICENSE.txt"),
                                             ("Foundation", "libFoundationEssentials.a", "swift/LICENSE.txt"),
                                             ("Dispatch", "libdispatch.a", "swift/LICENSE.txt"),
                                             ("ICU", "lib_FoundationICU.a", "icu/copyright")] {
                let entry = try #require(inside.components(separatedBy: "\n\n").first { $0.hasPrefix(part) }, "no \(part): \(inside)")
                #expect(entry.contains(library) && entry.contains("licenses/\(license)"), "\(entry)")
            }
            #expect(inside.contains("Apache-2.0 WITH Swift-exception, licenses/swift/LICENSE.txt"), "\(inside)")
            // Every Swift package pinned in Package.resolved is linked in: named with its version and its licence.
            let resolved = try JSONSerialization.jsonObject(
                with: Data(contentsOf: CardbakeBinary.repositoryRoot.appendingPathComponent("Package.resolved"))) as? [String: Any]
            let pins = try #require(resolved?["pins"] as? [[String: Any]])
            try #require(!pins.isEmpty)
            for pin in pins {
                let package = try #require(pin["identity"] as? String)
                let version = try #require((pin["state"] as? [String: Any])?["version"] as? String)
                #expect(inside.contains("\n\(package) \(version)\n  linked in: the modules "), "\(package) \(version): \(inside)")
                #expect(inside.contains("licenses/\(package)/LICENSE.txt"), "\(package)")
            }
            // Every licence path named is in the tarball, and every licence in the tarball is named.
            let named = Set(inside.matches(of: /licenses\/[^\s,]+/).map { String($0.output) })
            for path in named {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
            }
            let folders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("licenses").path)
            #expect(Set(folders) == Set(named.map { $0.split(separator: "/")[1] }.map(String.init)), "\(folders) \(named)")

            // The libraries linked dynamically: one line for each package of debian-packages that is not a font's.
            let packages = try String(contentsOf: folder.appendingPathComponent("debian-packages"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let listed = dynamic.split(separator: "\n").filter { $0.hasPrefix("  ") }
                .map { String($0.dropFirst(2).prefix { $0 != ":" }) }
            let libraryPackages = packages.filter { !$0.hasPrefix("fonts-") && $0 != "fontconfig" }
            #expect(listed.count == libraryPackages.count && Set(listed) == Set(libraryPackages), "\(listed)")
            #expect(Set(listed).isSuperset(of: ["libvips42", "libjpeg62-turbo", "libdeflate0", "libc6"]), "\(listed)")
            #expect(dynamic.contains("libvips.so.42"), "\(dynamic)")
        }
    }

    @Test("Unpacked outside the checkout and run with a clean environment, it renders the demo catalog")
    func rendersDemoCatalog() throws {
        try Sandbox.with { sandbox in
            let folder = try Self.unpack(into: sandbox)
            let binary = folder.appendingPathComponent("cardbake").path
            let home = sandbox.root.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
            // The demo catalog with its photos, in the run's folder.
            let input = CardbakeBinary.repositoryRoot.appendingPathComponent("Input")
            try FileManager.default.copyItem(at: input.appendingPathComponent("catalog.json"), to: sandbox.url("catalog.json"))
            try FileManager.default.copyItem(at: input.appendingPathComponent("images"), to: sandbox.url("images"))
            let clean = ["-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", binary]

            let version = try RunningCardbake(binary: URL(fileURLWithPath: "/usr/bin/env"), arguments: clean + ["--version"],
                                              directory: sandbox.work, environment: [:], logs: sandbox.logs).wait(timeout: 60)
            #expect(version.status == 0 && version.stdout.hasPrefix("cardbake \(Builder.version) (libvips "), version.comment)

            // When
            let result = try RunningCardbake(binary: URL(fileURLWithPath: "/usr/bin/env"),
                                             arguments: clean + ["build", "catalog.json", "--output", "Output"],
                                             directory: sandbox.work, environment: [:], logs: sandbox.logs).wait(timeout: 600)

            // Then every card of the catalog is built, in catalog order, at every scale it asks for
            #expect(result.status == 0, result.comment)
            let catalog = try #require(try JSONSerialization.jsonObject(with: sandbox.data("catalog.json")) as? [String: Any])
            let cards = try #require(catalog["cards"] as? [[String: Any]])
            let ids = cards.compactMap { $0["id"] as? String }
            #expect(Summary.find(in: result) == Summary(total: ids.count, rendered: ids.count, cached: 0, failed: 0),
                    result.comment)
            #expect(sandbox.exists(".cardbake"), "the default cache folder is in the current folder")
            try #require(sandbox.exists("Output/manifest.json"), result.comment)
            let manifest = try ManifestFile.read(from: sandbox.url("Output/manifest.json"))
            #expect(manifest.generator.hasPrefix("cardbake \(Builder.version) (libvips "))
            #expect(manifest.cards.map(\.id) == ids)
            let catalogScales = ((catalog["style"] as? [String: Any])?["scales"] as? [Int]) ?? [1, 2, 3]
            var listed: [String] = []
            for (card, entry) in zip(cards, manifest.cards) {
                let scales = ((card["style"] as? [String: Any])?["scales"] as? [Int]) ?? catalogScales
                #expect(entry.images.keys.sorted() == scales.map { "\($0)x" }.sorted(), "\(entry.id)")
                // Every locale's images, the source locale's and each translation's (the demo has three).
                let locales = [entry.images] + (entry.localizations ?? [:]).values.map(\.images)
                for (images, scale) in locales.flatMap({ images in scales.map { (images, $0) } }) {
                    let image = try #require(images["\(scale)x"], "\(entry.id) has no \(scale)x")
                    listed.append(image.file)
                    // The manifest's file names, whatever the format: the bytes it lists, decoding to its size.
                    #expect(image.width == Int((entry.size.width * Double(scale)).rounded())
                                && image.height == Int((entry.size.height * Double(scale)).rounded()),
                            "\(image.file): \(image.width)×\(image.height) for \(entry.size) at \(scale)x")
                    let bytes = try sandbox.data("Output/\(image.file)")
                    #expect(image.bytes == bytes.count, "\(image.file)")
                    #expect(image.sha256 == ContentDigest.sha256(bytes).description, "\(image.file)")
                    let size = try #require(Self.decodedSize(bytes), "\(image.file) is neither a whole PNG nor a whole JPEG")
                    #expect(size.width == image.width && size.height == image.height,
                            "\(image.file) is \(size.width)×\(size.height), the manifest says \(image.width)×\(image.height)")
                }
            }
            // and the cards folder holds exactly the files the manifest lists.
            let files = sandbox.listing("Output/cards").filter { !$0.value.isDirectory }.keys
            #expect(files.map { "cards/\($0)" }.sorted() == listed.sorted())
        }
    }

    /// The pixel size of a complete PNG (IHDR, ending with IEND) or baseline/progressive JPEG (SOF,
    /// ending with EOI); nil for anything else.
    static func decodedSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        func bigEndian(_ offset: Int, _ count: Int) -> Int { bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes.count >= 44, Array(bytes[12..<16]) == Array("IHDR".utf8),
                  Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8) else { return nil }
            return (bigEndian(16, 4), bigEndian(20, 4))
        }
        guard bytes.starts(with: [0xFF, 0xD8]), bytes.suffix(2) == [0xFF, 0xD9] else { return nil }
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (bigEndian(offset + 7, 2), bigEndian(offset + 5, 2))
            }
            offset += 2 + bigEndian(offset + 2, 2)
        }
        return nil
    }
}
