import CardBakeManifest
import Foundation
import Synchronization

/// A manifest entry in the forms an ``EntrySpool`` keeps: its text in the manifest, its line of the
/// gallery page (empty when the build writes no gallery) and its files.
struct SpooledForms: Sendable {
    let text: Data
    let figure: Data
    let files: Data

    /// Encodes `entry`; its gallery line only when `figures`.
    init(of entry: CardManifest.Entry, figures: Bool) throws {
        text = try CardManifest.elementText(of: entry)
        let cardFiles = CardFile.files(of: entry)
        figure = figures ? GalleryPage.figureLine(GalleryCard(entry: entry, files: cardFiles)) : Data()
        files = CardFile.encode(cardFiles)
    }
}

/// The encoded forms of the entries one build spooled, kept for the next build in the same process
/// (`cardbake watch`): an unchanged card's entry is then compared, not encoded again. Holds the
/// entries of the last build only, so it does not grow as cards come and go.
public final class SpooledFormsMemo: Sendable {
    private struct Kept: Sendable {
        let entry: CardManifest.Entry
        let figures: Bool
        let forms: SpooledForms
    }

    private struct State {
        /// By card id: what the last build spooled, and what this one has spooled so far.
        var last: [String: Kept] = [:]
        var current: [String: Kept] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Starts a build: what the build before it spooled, if anything, becomes what this one compares with.
    func startBuild() {
        state.withLock { state in
            if !state.current.isEmpty { state.last = state.current }
            state.current = [:]
        }
    }

    /// The forms of `entry` (with its gallery line when `figures`): kept ones when the last or this
    /// build spooled an equal entry, else encoded now.
    func forms(of entry: CardManifest.Entry, figures: Bool) throws -> SpooledForms {
        let kept = state.withLock { state in
            (state.current[entry.id] ?? state.last[entry.id]).flatMap {
                $0.figures == figures && $0.entry == entry ? $0 : nil
            }
        }
        let forms = try kept?.forms ?? SpooledForms(of: entry, figures: figures)
        state.withLock { $0.current[entry.id] = Kept(entry: entry, figures: figures, forms: forms) }
        return forms
    }
}
