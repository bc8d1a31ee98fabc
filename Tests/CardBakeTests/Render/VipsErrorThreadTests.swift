import Foundation
import Synchronization
import Testing
import Vips

/// libvips keeps one error buffer for the whole process; each failure must still carry its own message.
@Suite("libvips errors on many threads", .vips)
struct VipsErrorThreadTests {
    /// A damaged image of one format, and the words libvips' message about it starts with.
    struct Damaged: Sendable {
        let bytes: Data
        let marker: String
    }

    static func damaged() throws -> [Damaged] {
        let image = try TestImage.blocks(width: 400, height: 300)
        let encoded: [(VipsEncoder, String)] = [
            (.jpeg(quality: 90), "VipsJpeg:"), (.png(compression: 1, filter: .none), "vipspng:"), (.webp(quality: 90), "webp:"),
        ]
        return try encoded.map { encoder, marker in
            let bytes = try image.encoded(as: encoder)
            return Damaged(bytes: bytes.prefix(bytes.count / 2), marker: marker)
        }
    }

    @Test("Threads failing on different damaged images at once each get their own image's message, and no other's")
    func ownMessages() throws {
        // Given three damaged images of different formats
        let images = try Self.damaged()
        let wrong = Mutex<[String]>([])

        // When four threads per image decode them over and over, all at once
        DispatchQueue.concurrentPerform(iterations: images.count * 4) { worker in
            let own = images[worker % images.count]
            for _ in 0..<40 {
                do throws(VipsError) {
                    _ = try VipsImage.decode(own.bytes, maxWidth: 200)
                    wrong.withLock { $0.append("\(own.marker) decoded") }
                } catch {
                    let others = images.map(\.marker).filter { $0 != own.marker && error.message.contains($0) }
                    if !error.message.hasPrefix(own.marker) || !others.isEmpty {
                        wrong.withLock { $0.append("expected \(own.marker), got: \(error.message)") }
                    }
                }
            }
            Vips.threadShutdown()
        }

        // Then
        let found = wrong.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) of \(images.count * 4 * 40) failures had another message, such as \(found.prefix(3))")
    }
}
