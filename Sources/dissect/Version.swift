/// dissect's version: the one place it is written. `dissect --version` prints it, and
/// `make install` writes it into the man page (from `dissect --version`).
enum DissectVersion {
    static let current = "0.16.0"
}
