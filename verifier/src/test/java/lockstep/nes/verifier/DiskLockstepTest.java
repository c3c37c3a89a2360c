package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.demo.Assembler;
import org.junit.jupiter.api.Test;

/** Two engines running a disk system agree cycle by cycle, and a byte of the disk changed in one is caught. */
class DiskLockstepTest {
    /** Reads the disk's first bytes by the transfer IRQ into $0300, counting them in $10. */
    private static byte[] bios() {
        String src = """
                .org $E000
                reset:
                  sei
                  ldx #$FF
                  txs
                  lda #$40
                  sta $4017
                  lda #0
                  sta $10
                  sta $4023
                  lda #$83
                  sta $4023
                  lda #$27
                  sta $4025
                  lda #$E5
                  sta $4025
                  cli
                loop:
                  jmp loop
                irq:
                  pha
                  txa
                  pha
                  lda $4030
                  ldx $10
                  lda $4031
                  sta $0300,x
                  inc $10
                  pla
                  tax
                  pla
                  rti
                nmi:
                  rti
                .org $FFFA
                .word nmi, reset, irq
                """;
        return Assembler.assemble(src).image(0xE000, 0x2000, 0xEA);
    }

    @Test
    void bothEnginesReadTheDiskAlikeAndAChangedDiskByteIsCaught() throws Exception {
        Console a = Console.create(DiskSystem.cartridge("two.fds", MovieInputDiskTest.disk(), bios(), 0));
        LivePair pair = new LivePair(a, "two.fds", List.of());
        int frames = 0;
        while (a.peek(0x10) < 20) {
            assertTrue(pair.runFrame(0, 0), "frame " + frames + ": " + (pair.report() == null ? "" : pair.report().toText()));
            assertTrue(++frames < 60, "the disk was not read");
        }
        assertEquals(1, a.peek(0x0300), "the disk info block's code");
        assertEquals('*', a.peek(0x0301));
        // One byte of B's disk, past the head: only the disk differs, and the check sees it at once.
        ((FdsBoard) pair.second().mapper()).diskMemory().write(70000, 0x5A);
        assertFalse(pair.runFrame(0, 0));
        assertTrue(pair.diverged());
        assertTrue(pair.report().toText().contains("disk"), pair.report().toText());
    }
}
