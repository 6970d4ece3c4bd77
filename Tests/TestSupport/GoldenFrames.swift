import Foundation

/// Golden frames of a protocol (Tests/Fixtures/Frames, Tests/Fixtures/AgentFrames): a
/// `golden.hex` of frames, one a line, written from the protocol's specification, and a
/// `golden.txt` of their canonical readings, which every codec must give.
public enum GoldenFrames {
    /// The frames and their readings in `directory`.
    public static func read(from directory: URL) throws -> (frames: [[UInt8]], readings: [String]) {
        let hex = try String(contentsOf: directory.appendingPathComponent("golden.hex"), encoding: .utf8)
        let frames = hex.split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { offset -> UInt8 in
                let start = line.index(line.startIndex, offsetBy: offset)
                return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16)!
            }
        }
        let text = try String(contentsOf: directory.appendingPathComponent("golden.txt"), encoding: .utf8)
        return (frames, text.split(separator: "\n").map(String.init))
    }

    /// The readings a C codec's dump tool prints for `frames`, given as one stream on its
    /// standard input, a line each.
    public static func readings(by tool: URL, of frames: [[UInt8]]) throws -> [String] {
        let process = Process()
        process.executableURL = tool
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(frames.joined()))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return printed.split(separator: "\n").map(String.init)
    }
}
