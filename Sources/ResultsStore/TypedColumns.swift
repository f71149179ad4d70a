import Conformance
import GRDB

// The enumerations the store keeps in text columns are bound and read as themselves: a status,
// kind, outcome or level is never compared as a string in Swift, and a value outside the
// enumeration fails when read instead of becoming a default silently.

extension RunStatus: DatabaseValueConvertible {}
extension ImplementationStatus: DatabaseValueConvertible {}
extension Outcome: DatabaseValueConvertible {}
extension RequirementLevel: DatabaseValueConvertible {}
extension Finding.Kind: DatabaseValueConvertible {}
extension Finding.Status: DatabaseValueConvertible {}
