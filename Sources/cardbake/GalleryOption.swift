import ArgumentParser

/// `--no-gallery`, in `build` and in `check`, which compares against the same build.
struct GalleryOption: ParsableArguments {
    @Flag(name: .customLong("no-gallery"),
          help: "Write no preview gallery (index.html) beside the manifest, and remove one cardbake wrote there.")
    var noGallery = false
}
