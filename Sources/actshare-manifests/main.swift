// actshare-manifests: parses provider manifests and the config (YAML) for `actshare`,
// refreshes the manifest index, and writes the index to standard output.
//
//   actshare-manifests --library-dirs DIR:DIR [--cache-dir DIR] [--config FILE] -- MANIFEST...
//
// Without --cache-dir no index is read or saved (as for `actshare providers check`). Exit status 0
// means standard output holds an index in the format of ActShareCore's ManifestIndex;
// problems in the files are part of it, as errors with their FILE:LINE:COLUMN.
import ActShareCore
import ActShareManifests
#if canImport(Glibc)
import Glibc
#endif

func usage(_ message: String) -> Never {
    StandardError.write("actshare-manifests: \(message)\n")
    exit(2)
}

var libraryDirectories: [String] = []
var cacheDirectory: String?
var configFile: String?
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--library-dirs":
        guard let value = arguments.popFirst() else { usage("--library-dirs needs a value") }
        libraryDirectories = value.split(separator: ":").map(String.init)
    case "--cache-dir":
        guard let value = arguments.popFirst() else { usage("--cache-dir needs a value") }
        cacheDirectory = value
    case "--config":
        guard let value = arguments.popFirst() else { usage("--config needs a value") }
        configFile = value
    case "--":
        files = Array(arguments)
        arguments = []
    default:
        usage("unknown argument '\(argument)'")
    }
}

let decoder = ManifestDecoder(libraryDirectories: libraryDirectories)
let index = ManifestIndex(directory: cacheDirectory ?? "", libraryDirectories: libraryDirectories)
let (_, bytes) = index.rebuild(
    files: files, configFile: configFile, useIndexFile: cacheDirectory != nil,
    decodeManifest: { file in Result { try decoder.decode(file: file) }.mapError(ActShareError.wrapping) },
    decodeConfig: { file in Result { try ConfigDecoder().decode(file: file) }.mapError(ActShareError.wrapping) })
StandardError.writeAll(bytes, to: 1)
