import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation

/// The bytes of the output files a build replaces, kept until its manifest is in place, so that the
/// manifest on disk and the files it lists agree whatever stops the build.
///
/// Before a file is replaced, it is hard-linked into `.cardbake-previous/` in the output folder (a link
/// takes no space, so this works on a full disk; where links are not supported it is copied). When
/// writing the folder fails, and in the next build after a kill (through the ``WriteJournal``), each
/// kept file that the manifest on disk lists with the kept bytes goes back in place; then the kept
/// files are removed. Only the process holding the output folder's lock uses it.
struct OutputBackup: Sendable {
    static let folderName = ".cardbake-previous"
    /// The output folder.
    let directory: URL

    private var folder: URL { directory.appendingPathComponent(Self.folderName) }

    /// Keeps the file at `file` (relative to the output folder) as it is now, if there is one.
    /// Throws ``FileSystemError`` when it cannot: replacing it then could break the manifest in place.
    func keep(_ file: String) throws {
        let kept = folder.appendingPathComponent(file)
        let keptFolder = kept.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: keptFolder, withIntermediateDirectories: true)
        } catch {
            throw FileSystemError.cannotCreateDirectory(path: keptFolder.path, errno: Self.code(of: error))
        }
        let current = directory.appendingPathComponent(file)
        guard link(current.fileSystemPath, kept.fileSystemPath) != 0 else { return }
        let linkError = errno
        switch linkError {
        case ENOENT, EEXIST:
            return
        case EPERM, EOPNOTSUPP, EMLINK, EXDEV:
            do {
                try FileManager.default.copyItem(at: current, to: kept)
            } catch {
                throw FileSystemError.cannotWrite(path: kept.path, errno: Self.code(of: error))
            }
        default:
            throw FileSystemError.cannotWrite(path: kept.path, errno: linkError)
        }
    }

    /// Puts back each kept file that the manifest on disk lists with the kept bytes, where the file in
    /// place now has others or is gone, then removes the kept files.
    func restore() {
        guard let kept = try? FileManager.default.subpathsOfDirectory(atPath: folder.path) else { return }
        let manifest = CardManifest.read(from: directory.appendingPathComponent(CardManifest.fileName), digest: ContentDigest.sha256OfData)
        let listed = Dictionary((manifest?.cards ?? []).flatMap { $0.card.imagesInEveryLocale.flatMap { $0.values.map { ($0.file, $0.sha256) } } },
                                uniquingKeysWith: { first, _ in first })
        for file in kept where OutputFolder.isCardFile(file) {
            guard let digest = listed[file] else { continue }
            let keptFile = folder.appendingPathComponent(file), current = directory.appendingPathComponent(file)
            if (try? ContentDigest.sha256(ofFileAt: current)) != digest,
               (try? ContentDigest.sha256(ofFileAt: keptFile)) == digest {
                rename(keptFile.fileSystemPath, current.fileSystemPath)
            }
        }
        discard()
    }

    /// Removes the kept files: the manifest in place lists the new ones.
    func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func code(of error: any Error) -> Int32 {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EIO
    }
}
