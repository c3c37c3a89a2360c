package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.digest.TestRoms;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.Describer;
import lockstep.nes.state.EntryTag;
import lockstep.nes.state.FieldRange;
import org.junit.jupiter.api.Test;

/** {@code reg@} faults are held to the field's range: refused before the run, never truncated. */
class FieldPokeTest {

    private static Console console() {
        Console c = TestRoms.console(TestRoms.tiny());
        c.runFrame();
        return c;
    }

    @Test
    void aValueOutsideTheFieldsRangeIsRefusedAndNothingChanges() {
        Console c = console();
        byte[] before = new Snapshots(c).save();
        for (String[] bad : new String[][] {
            {"reg@5:A:cpu.a=$1FF", "cpu.a = 511 is out of range 0..255"},
            {"reg@5:A:ppu.fineX=225", "ppu.fineX = 225 is out of range 0..7"},
            {"reg@5:A:ppu.scanline=-500", "ppu.scanline = -500 is out of range 0..261"},
            {"reg@5:B:cpu.opcode=$7FFF", "cpu.opcode = 32767 is out of range 0..258"},
            {"reg@5:A:ppu.vblank=2", "ppu.vblank = 2 is out of range 0..1"},
            {"reg@5:A:mapper.prgPage=1", "no scalar field 'mapper.prgPage' in the state description"},
        }) {
            FaultSpec f = FaultSpec.parse(bad[0]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Faults.check(List.of(f), c), bad[0]);
            assertEquals("bad --inject '" + f + "': " + bad[1], e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Faults.apply(f, c), bad[0]);
        }
        assertArrayEquals(before, new Snapshots(c).save(), "refused pokes changed nothing");
        // Checking faults that fit changes nothing either (the desktop checks its live console).
        Faults.check(List.of(FaultSpec.parse("ram-bitflip@5:A:$07FF:7"), FaultSpec.parse("vram-bitflip@5:A:$07FF:7"),
                FaultSpec.parse("reg@5:A:cpu.a=$12")), c);
        assertArrayEquals(before, new Snapshots(c).save(), "checking a fault does not apply it");
    }

    @Test
    void theEndsOfEveryScalarRangeArePoked() {
        Describer d = new Describer();
        console().state(d);
        int poked = 0;
        for (FieldRange r : d.ranges()) {
            if (r.tag() == EntryTag.INTS || r.tag() == EntryTag.I64) {
                continue; // arrays are bit-flipped, not set; clocks at their ends are caught up to on the next visit
            }
            for (long v : new long[] {r.min(), r.max()}) {
                Console c = TestRoms.console(TestRoms.tiny());
                String before = FieldPoke.set(c, r.path(), v); // accepted: no exception
                assertEquals(true, before != null, r.path());
                poked++;
            }
        }
        assertEquals(true, poked > 200, poked + " pokes");
    }
}
