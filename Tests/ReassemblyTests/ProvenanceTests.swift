import Reassembly
import Testing

@Suite struct ProvenanceTests {
    @Test func aRunKeepsWhereItCameFrom() {
        let run = Provenance(frame: 3, frameOffset: 34, unitOffset: 1480, length: 20)
        #expect(run.frame == 3 && run.frameOffset == 34 && run.unitOffset == 1480 && run.length == 20)
    }
}
