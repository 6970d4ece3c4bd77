/// The words a handler's `exec` may hold, each replaced by one whole argument.
public enum HandlerPlaceholder {
    /// The path of the JSON file that describes the activity being continued.
    public static let activityFile = "{activity-file}"
}
