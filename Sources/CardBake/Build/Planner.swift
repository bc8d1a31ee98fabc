import Foundation

/// Works out each card's inputs and keys, and what the cache already has, without decoding images.
struct Planner: Sendable {
    let statCache: StatCache
    let fonts: FontResolver
    let records: RecordCache

    /// The plan for one card, or why it cannot be built (missing image, unknown font, …).
    func plan(_ card: Card) -> Result<CardPlan, CardFailure> {
        do {
            let fonts = try fonts.fonts(for: card.style)
            let digest: Digest
            do {
                digest = try statCache.digest(ofFileAt: card.image)
            } catch {
                throw RenderError.unreadableImage(path: card.image.path, reason: Self.reason(error))
            }
            let inputs = CardInputs(imageDigest: digest, card: card, fonts: fonts)
            var cached: [Int: RenderedImageRecord] = [:]
            for scale in card.style.scales {
                cached[scale] = records.record(RenderedImageRecord.self, for: inputs.imageKey(scale: scale))
            }
            return .success(CardPlan(card: card, fonts: fonts, inputs: inputs, cached: cached))
        } catch {
            return .failure(CardFailure(cardID: card.id, index: card.index, image: card.image, reason: "\(error)"))
        }
    }

    /// The cause of a file error without Foundation's boilerplate.
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError {
            return String(cString: strerror(posix.code.rawValue)).lowercased()
        }
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return "\(error)"
    }
}
