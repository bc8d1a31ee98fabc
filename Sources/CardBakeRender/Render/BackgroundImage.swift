import Foundation
import Vips

/// The card's blurred, saturated and tinted background at a reduced resolution, in float sRGB (0–255).
///
/// A blur of sigma 30 pt is low-frequency, so it is computed small and scaled up to each
/// output scale; this is also the unit the cache stores, so a title edit reuses it.
package struct BackgroundImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// Interleaved RGB samples, row by row.
    package let samples: [Float]

    package init(width: Int, height: Int, samples: [Float]) {
        precondition(samples.count == width * height * 3)
        self.width = width
        self.height = height
        self.samples = samples
    }
}

extension BackgroundImage {
    private static let magic = Data("CBBG1\n".utf8)

    /// A compact binary form for the cache: a magic line, width, height, then little-endian floats.
    package func serialized() -> Data {
        var data = Self.magic
        for dimension in [UInt32(width), UInt32(height)] {
            withUnsafeBytes(of: dimension.littleEndian) { data.append(contentsOf: $0) }
        }
        samples.withUnsafeBufferPointer { buffer in
            for sample in buffer {
                withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }

    /// Reads what ``serialized()`` wrote; nil for anything else.
    package init?(serialized data: Data) {
        let bytes = [UInt8](data)
        let header = Self.magic.count + 8
        guard bytes.count >= header, bytes.starts(with: Self.magic) else { return nil }
        func word(at offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }
        let width = Int(word(at: Self.magic.count))
        let height = Int(word(at: Self.magic.count + 4))
        guard width > 0, height > 0, bytes.count == header + width * height * 3 * 4 else { return nil }
        let samples = (0..<(width * height * 3)).map { Float(bitPattern: word(at: header + $0 * 4)) }
        self.init(width: width, height: height, samples: samples)
    }
}

