import CardBakeManifest
import Foundation

/// An Xcode String Catalog (`.xcstrings`): per key, a string per language.
///
/// Read: `sourceLanguage` and, per key of `strings`, each localization's `stringUnit.value`. A
/// localization with `variations` (plural, device) has no one string a card can draw and counts as
/// absent; so do languages that are not language tags. A key with no string in the source language
/// is its own source text, as Xcode has it.
package struct StringCatalog {
    /// The file, for messages.
    let file: URL
    let sourceLanguage: LocaleTag
    /// Per key, its strings by language.
    let strings: [String: [LocaleTag: String]]
    /// SHA-256 of the file's bytes.
    let digest: ContentDigest

    /// The catalog at `file`, or the reason it cannot be read as one.
    static func load(_ file: URL) -> Result<StringCatalog, StringCatalogProblem> {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            return .failure(StringCatalogProblem(file: file, reason: "cannot be read (\((error as NSError).localizedDescription))"))
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            return .failure(StringCatalogProblem(file: file, reason: "is not an Xcode String Catalog: \(describe(error))"))
        }
        guard let source = LocaleTag(document.sourceLanguage) else {
            return .failure(StringCatalogProblem(file: file, reason: "has a sourceLanguage that is not a language tag: \(LocaleTag.problem(with: document.sourceLanguage)!)"))
        }
        var strings: [String: [LocaleTag: String]] = [:]
        for (key, entry) in document.strings {
            var byLanguage: [LocaleTag: String] = [:]
            for (language, localization) in entry.localizations ?? [:] {
                if let tag = LocaleTag(language), let value = localization.stringUnit?.value { byLanguage[tag] = value }
            }
            if byLanguage[source] == nil { byLanguage[source] = key }
            strings[key] = byLanguage
        }
        return .success(StringCatalog(file: file, sourceLanguage: source, strings: strings,
                                      digest: ContentDigest.sha256(data)))
    }

    /// The file's JSON, as much of it as a card's text needs.
    private struct Document: Decodable {
        var sourceLanguage: String
        var strings: [String: Entry]

        struct Entry: Decodable {
            var localizations: [String: Localization]?
        }

        struct Localization: Decodable {
            var stringUnit: StringUnit?
        }

        struct StringUnit: Decodable {
            var value: String
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context)?:
            "invalid JSON (\(context.underlyingError.map { ($0 as NSError).localizedDescription } ?? context.debugDescription))"
        default:
            "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            .joined().drop { $0 == "." }.description
    }
}

/// Why a String Catalog cannot be used, for a catalog problem at its `strings` key.
struct StringCatalogProblem: Error {
    let file: URL
    let reason: String

    var message: String { "the String Catalog \(file.path) \(reason)." }
}
