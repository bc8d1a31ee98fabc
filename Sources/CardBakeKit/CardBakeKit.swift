// What an app or a server links to show prerendered cards: the manifest's types (re-exported, the
// same ones the pipeline writes), the file for a screen scale, the ThumbHash codec and file
// verification. Foundation only, so it builds for iOS, macOS and Linux without any C library.
@_exported import CardBakeManifest
