/// A rectangle in points.
package struct PointRect: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The frame in pixels at `scale`, snapped outwards to whole pixels as CGRectIntegral does:
    /// origins floor, far edges ceil.
    package func pixels(atScale scale: Int) -> PixelRect {
        let s = Double(scale)
        let left = Int((x * s).rounded(.down))
        let top = Int((y * s).rounded(.down))
        let right = Int(((x + width) * s).rounded(.up))
        let bottom = Int(((y + height) * s).rounded(.up))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A rectangle of whole pixels.
package struct PixelRect: Sendable, Hashable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var isEmpty: Bool { width <= 0 || height <= 0 }
}
