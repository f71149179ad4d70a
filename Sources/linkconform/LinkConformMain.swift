import LinkConformCLI

@main
struct LinkConformMain {
    static func main() async {
        await LinkConformCommand.main()
    }
}
