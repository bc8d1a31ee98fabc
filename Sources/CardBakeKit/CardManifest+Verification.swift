import Foundation

extension CardManifest.Image {
    /// Checks that `data` is this image's file: its byte count and its SHA-256. Throws
    /// ``CardManifest/VerificationError``.
    public func verify(_ data: Data) throws(CardManifest.VerificationError) {
        guard data.count == bytes else {
            throw .wrongSize(file: file, expected: bytes, found: data.count)
        }
        let digest = PortableSHA256.hash(data)
        guard digest == sha256 else {
            throw .wrongDigest(file: file, expected: sha256, found: digest)
        }
    }

    /// Checks the file as ``verify(_:)`` does, reading it from `folder`, the manifest's folder
    /// (`file` is relative to it).
    public func verifyFile(in folder: URL) throws(CardManifest.VerificationError) {
        let url = folder.appendingPathComponent(file)
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .unreadable(file: url.path, reason: error.localizedDescription)
        }
        try verify(data)
    }
}

extension CardManifest {
    /// A card's file that is not what the manifest says; the description names the file and what differs.
    public enum VerificationError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(file: String, reason: String)
        case wrongSize(file: String, expected: Int, found: Int)
        case wrongDigest(file: String, expected: ContentDigest, found: ContentDigest)

        public var description: String {
            switch self {
            case let .unreadable(file, reason):
                "\(file): cannot read the card's file: \(reason)"
            case let .wrongSize(file, expected, found):
                "\(file): the manifest says \(expected) bytes, the file has \(found)"
            case let .wrongDigest(file, expected, found):
                "\(file): the manifest's sha256 is \(expected), the file's is \(found)"
            }
        }
    }
}
