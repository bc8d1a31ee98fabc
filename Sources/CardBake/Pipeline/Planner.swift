import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Foundation

/// Works out each card's inputs and keys without decoding images.
struct Planner: Sendable {
    let statCache: StatCache
    let fonts: FontResolver

    /// The plan for one card, or why it cannot be built (missing image, unknown font, …).
    func plan(_ card: Card) -> Result<CardPlan, CardFailure> {
        do throws(CardFailure) {
            let fonts: ResolvedFonts
            do {
                fonts = try self.fonts.fonts(for: card.style)
            } catch {
                throw CardFailure(card: card, field: error.field, error: error.error)
            }
            let digest = try CardFailure.field("image", of: card) { () throws(RenderError) in
                do {
                    return try statCache.digest(ofFileAt: card.image)
                } catch {
                    throw .unreadableImage(path: card.image.path, reason: RenderError.cause(of: error))
                }
            }
            let inputs = CardInputs(imageDigest: digest, card: card, fonts: fonts)
            return .success(CardPlan(card: card, fonts: fonts, inputs: inputs))
        } catch {
            return .failure(error)
        }
    }
}
