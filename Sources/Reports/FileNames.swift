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
}
