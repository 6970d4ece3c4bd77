/// Why an upload is refused (the HTTP status LocalSend gives each).
enum LocalSendSessionError: Error {
    /// No such session, file or token (403).
    case forbidden
    /// That file is being uploaded already (409).
    case busy
    /// The receive folder cannot be written (500).
    case cannotWrite
}
