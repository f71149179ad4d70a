import LinkURL
import ULC
func profileShort() {
    let link = "https://a/l?ulc-success=https%3A%2F%2Fb&ulc-error=https%3A%2F%2Fc"
    var c = 0
    for _ in 0..<100_000 { c &+= ULC.parse(link).violations.count }
    print(c)
}
