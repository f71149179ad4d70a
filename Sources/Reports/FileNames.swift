/// File names made from names an adapter chose (badges, statements): only the characters
/// `keep` accepts stay, every run of other characters becomes one `-`, and no `-` starts or
/// ends the result. ("../../etc/Passwd" keeping a-z and 0-9, lower-cased: "etc-passwd".)
enum FileNames {
    static func dashed(_ name: some Sequence<Unicode.Scalar>, keep: (Unicode.Scalar) -> Bool) -> String {
        var stem = ""
        for scalar in name {
            if keep(scalar) {
                stem.unicodeScalars.append(scalar)
            } else if !stem.isEmpty && !stem.hasSuffix("-") {
                stem += "-"
            }
        }
        while stem.hasSuffix("-") { stem.removeLast() }
        return stem
    }

    /// A file name made of the first 60 characters of `name`: its `a-z` and `0-9` (lower-cased),
    /// runs of anything else turned into one `-`, cut before dashing so it never ends in one;
    /// empty when nothing is left.
    static func lowercaseStem(_ name: String) -> String {
        dashed(name.lowercased().unicodeScalars.prefix(60)) { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}
