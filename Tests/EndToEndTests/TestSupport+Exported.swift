// The one `eventually` (Tests/TestSupport), seen by every file of these tests.
@_exported import TestSupport
