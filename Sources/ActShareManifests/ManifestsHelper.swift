import ActShareCore

#if canImport(Glibc)
import Glibc
#endif

/// `actshare-manifests`: parses provider manifests and the config (YAML) for `actshare`,
/// refreshes the manifest index, and writes the index to standard output.
///
///     actshare-manifests --library-dirs DIR:DIR [--builtin-dir DIR] --index FILE [--config FILE] --directory DIR...
///     actshare-manifests --library-dirs DIR:DIR [--builtin-dir DIR] -- MANIFEST...
///     actshare-manifests --library-dirs DIR:DIR [--builtin-dir DIR] --check MANIFEST
///
/// It is the `actshare` executable run under that name (by ManifestLoader), in a process
/// of its own. The first form scans the provider directories, in order, and refreshes the
/// index; the second decodes the given manifests only, and no index is read or saved (as
/// for `actshare providers check`). Exit status 0 means standard output holds an index in
/// the format of ActShareCore's ManifestIndex; problems in the files are part of it, as
/// errors with their FILE:LINE:COLUMN. The third prints every error and warning of one
/// manifest, a line each (for `providers check`).
public enum ManifestsHelper {
    /// Runs the helper with `arguments` (without `argv[0]`) and exits.
    public static func main(_ arguments: [String]) -> Never {
        var libraryDirectories: [String] = []
        var indexFile: String?
        var configFile: String?
        var files: [String] = []
        var directories: [String] = []
        var builtinDirectories: [String] = []
        var checkFile: String?
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--library-dirs":
                guard let value = arguments.popFirst() else { usage("--library-dirs needs a value") }
                libraryDirectories = value.split(separator: ":").map(String.init)
            case "--index":
                guard let value = arguments.popFirst() else { usage("--index needs a value") }
                indexFile = value
            case "--config":
                guard let value = arguments.popFirst() else { usage("--config needs a value") }
                configFile = value
            case "--builtin-dir":
                guard let value = arguments.popFirst() else { usage("--builtin-dir needs a value") }
                builtinDirectories.append(value)
            case "--directory":
                guard let value = arguments.popFirst() else { usage("--directory needs a value") }
                directories.append(value)
            case "--check":
                guard let value = arguments.popFirst() else { usage("--check needs a value") }
                checkFile = value
            case "--":
                files = Array(arguments)
                arguments = []
            default:
                usage("unknown argument '\(argument)'")
            }
        }

        let decoder = ManifestDecoder(libraryDirectories: libraryDirectories, builtinDirectories: builtinDirectories)
        if let checkFile {
            let lines = decoder.problems(file: checkFile).map { "\($0)\n" }.joined()
            exit(FileSystem.writeAll(Array(lines.utf8), to: 1) ? 0 : 1)
        }
        var index = ManifestIndex(directory: "", libraryDirectories: libraryDirectories)
        let decodeManifest = { (file: String) in Result { try decoder.decode(file: file) }.mapError(ActShareError.wrapping) }
        let decodeConfig = { (file: String) in Result { try ConfigDecoder().decode(file: file) }.mapError(ActShareError.wrapping) }
        let bytes: [UInt8]
        if let indexFile {
            index.file = indexFile
            bytes =
                index.rebuild(
                    directories: directories, configFile: configFile, decodeManifest: decodeManifest, decodeConfig: decodeConfig
                ).bytes
        } else {
            bytes =
                index.rebuild(
                    files: files, configFile: configFile, useIndexFile: false, decodeManifest: decodeManifest, decodeConfig: decodeConfig
                ).bytes
        }
        exit(FileSystem.writeAll(bytes, to: 1) ? 0 : 1)
    }

    private static func usage(_ message: String) -> Never {
        _ = FileSystem.writeAll(Array("\(SearchPaths.manifestHelperName): \(message)\n".utf8), to: 2)
        exit(2)
    }
}
