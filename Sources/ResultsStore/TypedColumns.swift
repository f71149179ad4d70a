import Conformance
import GRDB

// The enumerations the store keeps in text columns are bound as themselves, so a status, kind,
// outcome or level is never written or compared as a string in Swift. Reading goes through each
// type's raw value; where a newer version may have written a value this one does not know, the
// reader documents its fallback (a level reads as INFO, an implementation status as ok).

extension RunStatus: DatabaseValueConvertible {}
extension ImplementationStatus: DatabaseValueConvertible {}
extension Outcome: DatabaseValueConvertible {}
extension RequirementLevel: DatabaseValueConvertible {}
extension Finding.Kind: DatabaseValueConvertible {}
extension Finding.Status: DatabaseValueConvertible {}
