/// XignSys links and the process initialization data (pid) they carry.
///
/// Source: the XignSys SDK documentation ("starting a process"). Two link forms start a
/// personalization, an authentication or a transaction:
///
/// ```text
/// deep link   xignqr://authentication?pid=<base64>&browser=2&source-url=<encoded URL>
/// app link    https://xign.me/in-app/process/init?action=authentication&pid=<base64>
/// ```
///
/// ``redirect(_:schemes:hosts:)`` is the lightweight check an app runs when a link arrives;
/// ``decodePID(_:hosts:)`` is the full decoder. No public schema of the pid exists: reading it as
/// protocol-buffers wire format is LinkConform's inference (the examples start `CgM`, bytes
/// `0x0A 0x03`: field 1, length-delimited, three bytes), and the requirement registry marks it so.
public enum XignQR {}
