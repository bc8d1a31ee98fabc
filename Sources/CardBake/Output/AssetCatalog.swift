import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc

/// The layout of an Xcode asset catalog (`--xcassets`) that mirrors the output folder: `Contents.json`
/// at the top, and for each card `<id>.imageset/` with a `Contents.json` listing its scales and the
/// card's files under the names they have in `cards/`, with the same bytes. A card in translated
/// locales has each locale's files beside them (`<id>-<locale>@2x.jpg`), listed with their `locale`,
/// so that `UIImage(named:)` picks the device's language; the source locale's, listed with none, serve
/// every other language.
///
/// The JSON is laid out as Xcode writes it (keys sorted, `" : "`, two-space indentation, a final
/// newline), so opening and saving the catalog in Xcode changes nothing.
///
/// cardbake owns only the files it lists in the catalog's ledger, `.cardbake-files`: it prunes
/// those of removed cards, and leaves every other file and folder in the catalog alone.
enum AssetCatalog {
    /// The hidden file listing, one per line, every file cardbake wrote in the catalog.
    static let ledgerName = ".cardbake-files"
    static let contentsName = "Contents.json"
    /// What an image set holds, as Xcode's asset catalog format lists it: no WebP or AVIF.
    static let formats: Set<OutputFormat.Kind> = [.png, .jpeg, .heic]

    /// One file of the catalog, by its path relative to the catalog, and its bytes.
    struct File: Sendable {
        enum Content: Sendable {
            case json(Data)
            /// The bytes of `outputFile` (relative to the output folder), whose digest is `digest`.
            case image(outputFile: String, digest: ContentDigest)
        }

        let path: String
        let content: Content

        var digest: ContentDigest {
            switch content {
            case .json(let data): ContentDigest.sha256(data)
            case .image(_, let digest): digest
            }
        }
    }

    /// Every file for the cards of `entries`, and the top `Contents.json` when `withTopContents`.
    static func files(for entries: [CardManifest.Entry], withTopContents: Bool) -> [File] {
        var files = withTopContents ? [File(path: contentsName, content: .json(topContents))] : []
        for entry in entries {
            let images = entry.card.imagesByLocale.flatMap { locale, images in
                CardFile.files(in: images).map { (locale: locale, file: $0) }
            }
            files.append(File(path: imageSet(entry.id) + contentsName,
                              content: .json(imageSetContents(images.map {
                                  ImageSlot(scale: $0.file.scale, file: fileName(of: $0.file.file), locale: $0.locale)
                              }))))
            files += images.map { File(path: imageSet(entry.id) + fileName(of: $0.file.file),
                                       content: .image(outputFile: $0.file.file, digest: $0.file.digest)) }
        }
        return files
    }

    /// One image of an image set: its scale, its file's name in the set, and its locale (nil for the
    /// source locale's, which serves every language without images of its own).
    struct ImageSlot {
        let scale: Int
        let file: String
        var locale: String? = nil
    }

    /// The paths a build of `card` may write, known before it renders (for the write journal).
    static func paths(for card: Card) -> [String] {
        [imageSet(card.id) + contentsName] + OutputFolder.files(for: card).map { imageSet(card.id) + fileName(of: $0) }
    }

    /// `<id>.imageset/`.
    static func imageSet(_ id: String) -> String { "\(id).imageset/" }

    /// Whether `path` has the shape of a file cardbake writes: the top `Contents.json` or a plain
    /// name inside an image set (a ledger read from disk could name anything).
    static func isOwnShape(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1 { return path == contentsName }
        return parts.count == 2 && parts[0].hasSuffix(".imageset") && parts[0].count > ".imageset".count
            && !parts[0].hasPrefix(".") && !parts[1].isEmpty && !parts[1].hasPrefix(".")
    }

    /// The name in its image set of an output file: `cards/toucan@2x.jpg` is `toucan@2x.jpg`, and
    /// `cards/ar/toucan@2x.jpg` is `toucan-ar@2x.jpg`.
    private static func fileName(of outputFile: String) -> String {
        let parts = outputFile.split(separator: "/")
        let name = String(parts.last ?? Substring(outputFile))
        guard parts.count == 3, let at = name.lastIndex(of: "@") else { return name }
        return "\(name[..<at])-\(parts[1])\(name[at...])"
    }

    /// The catalog's own `Contents.json`, as Xcode writes it for a new catalog.
    static let topContents: Data = json { document in
        document.member("info", info)
    }

    /// An image set's `Contents.json`: one universal image per slot, in the order given (each
    /// locale's scales in ascending order, the source locale's first).
    static func imageSetContents(_ images: [ImageSlot]) -> Data {
        json { document in
            document.member("images") { list in
                list.array(images) { item, image in
                    item.object { slot in
                        slot.member("filename") { $0.string(image.file) }
                        slot.member("idiom") { $0.string("universal") }
                        slot.member("locale", ifPresent: image.locale) { $0.string($1) }
                        slot.member("scale") { $0.string(CardManifest.scaleName(image.scale)) }
                    }
                }
            }
            document.member("info", info)
        }
    }

    private static func info(_ writer: inout JSONWriter) {
        writer.object { info in
            info.member("author") { $0.string("xcode") }
            info.member("version") { $0.number(1) }
        }
    }

    private static func json(_ members: (inout JSONWriter) -> Void) -> Data {
        var writer = JSONWriter()
        writer.object(members)
        return Data(writer.bytes + [0x0A])
    }
}

extension AssetCatalog {
    /// Throws ``AssetCatalogError`` unless `directory` can be the asset catalog of a build of `catalog`
    /// into `output`: a folder that is or can be made writable, apart from the output folder's files,
    /// for cards in formats an asset catalog takes. Reads only; for before anything renders.
    static func checkDestination(_ directory: URL, output: URL, catalog: Catalog) throws(AssetCatalogError) {
        let path = directory.fileSystemPath
        let outputPath = output.fileSystemPath
        if path == outputPath || path.hasPrefix(outputPath + "/cards/") || path == outputPath + "/cards"
            || outputPath.hasPrefix(path + "/") {
            throw .overlapsOutput(path: path, output: outputPath)
        }
        if let card = catalog.cards.first(where: { !formats.contains($0.style.output.kind) }) {
            throw .unsupportedFormat(catalog: catalog.file.path, card: card.id, format: card.style.output.kind)
        }
        var existing = directory
        while access(existing.fileSystemPath, F_OK) != 0 && existing.fileSystemPath != "/" {
            existing = existing.deletingLastPathComponent()
        }
        var status = stat()
        guard stat(existing.fileSystemPath, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .notWritable(path: path, reason: "\(existing.fileSystemPath) is not a folder")
        }
        guard access(existing.fileSystemPath, W_OK | X_OK) == 0 else {
            throw .notWritable(path: path, reason: "\(existing.fileSystemPath): \(String(cString: strerror(errno)))")
        }
    }
}

/// `--xcassets` names a folder cardbake cannot use as an asset catalog; found before anything renders.
public enum AssetCatalogError: Error, Sendable, CustomStringConvertible {
    /// The catalog would be the output folder, lie inside its `cards/`, or hold the output folder.
    case overlapsOutput(path: String, output: String)
    /// Neither the folder nor a parent it could be made in is a writable folder.
    case notWritable(path: String, reason: String)
    /// A card's format is one an image set cannot hold.
    case unsupportedFormat(catalog: String, card: String, format: OutputFormat.Kind)
    /// The catalog already has an image set of this name that cardbake did not write.
    case foreignImageSet(path: String, card: String)

    public var description: String {
        switch self {
        case let .overlapsOutput(path, output):
            "--xcassets \(path) overlaps the output folder \(output): the asset catalog must not be the output"
                + " folder, lie inside its cards/ folder or contain it; choose a folder such as \(output)/Cards.xcassets."
        case let .notWritable(path, reason):
            "--xcassets \(path) cannot be written: \(reason)."
        case let .unsupportedFormat(catalog, card, format):
            "\(catalog): card \"\(card)\" is in format \"\(format.rawValue)\", which an Xcode asset catalog cannot hold"
                + " (image sets take PNG, JPEG and HEIC); choose png, jpeg or heic (style.format or --format), or drop --xcassets."
        case let .foreignImageSet(path, card):
            "--xcassets: \(path) was not written by cardbake, and card \"\(card)\" would replace it;"
                + " rename the card or move that image set."
        }
    }
}
