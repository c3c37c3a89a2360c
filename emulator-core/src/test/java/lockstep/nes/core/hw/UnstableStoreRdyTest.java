package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SHA, SHX, SHY and TAS halted by a DMA on their dummy read, the cycle before the write: the
 * value stored loses its AND with the base address's high byte + 1, and where the index crosses
 * a page the target's high byte is that value. Each program lands a DMC DMA on every cycle near
 * the instruction ({@link DmcSweep}) and passes when one trial stored the register alone and every
 * other one stored what the instruction stores without a DMA. (SHA (zp),Y reads once more before
 * its dummy read, later than a $4015 write can bring a DMA: {@code CpuHaltTest} covers it.)
 */
class UnstableStoreRdyTest {
    private static final int TAS = 0x9B;
    private static final int SHY = 0x9C;
    private static final int SHX = 0x9E;
    private static final int SHA_ABY = 0x9F;

    /** Runs {@code opcode} at {@code base} indexed by {@code index}, the other register {@code other}. */
    private static HardwareProgram program(int opcode, int base, int index, int other) {
        int x = opcode == SHY ? index : other;
        int y = opcode == SHY ? other : index;
        int register = switch (opcode) {
            case SHX -> x;
            case SHY -> y;
            default -> 0xFF & x; // A is $FF (it starts the DMC)
        };
        int high = base >> 8;
        int effective = (base + index) & 0xFFFF;
        boolean crossed = (base & 0xFF) + index > 0xFF;
        int normalValue = register & (high + 1);
        int normalAddress = crossed ? (normalValue << 8) | (effective & 0xFF) : effective;
        int haltedValue = register;
        int haltedAddress = crossed ? (haltedValue << 8) | (effective & 0xFF) : effective;
        String instruction = ".byte $%02X, $%02X, $%02X".formatted(opcode, base & 0xFF, base >> 8);

        StringBuilder src = new StringBuilder(String.join("\n",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                DmcSweep.SETUP,
                "  lda #0",
                "  sta $20",
                ""));
        List<String> triggers = DmcSweep.triggers();
        for (int k = 0; k < triggers.size(); k++) {
            src.append(DmcSweep.drain("t" + k)).append(String.join("\n",
                    "  lda #$EE",
                    "  sta " + normalAddress,
                    "  sta " + haltedAddress,
                    "  ldx #" + x,
                    "  ldy #" + y,
                    "  lda #$FF",
                    triggers.get(k) + "  " + instruction,
                    "  ldx #$FF",
                    "  txs",
                    "  lda " + haltedAddress,
                    "  cmp #" + haltedValue,
                    "  bne normal_" + k,
                    "  inc $20",
                    "  jmp next_" + k,
                    "normal_" + k + ":",
                    "  lda " + normalAddress,
                    "  cmp #" + normalValue,
                    "  beq next_" + k,
                    "  lda #2",
                    "  jmp fail_a",
                    "next_" + k + ":",
                    ""));
        }
        src.append(String.join("\n",
                "  lda $20",
                "  bne some",
                "  lda #3", // no trial stored the register alone
                "  jmp fail_a",
                "some:",
                "  cmp #" + triggers.size(),
                "  bne done",
                "  lda #4", // every trial did: the sweep missed the instruction's other cycles
                "  jmp fail_a",
                "done:",
                "  jmp pass",
                ""));
        return HardwareProgram.of(src.toString());
    }

    @Test
    void shxStoresXAloneWhenHaltedBeforeItsWrite() {
        assertEquals(HardwareProgram.PASS, program(SHX, 0x0300, 0x10, 0xFF).run(10));
    }

    @Test
    void shyStoresYAloneWhenHaltedBeforeItsWrite() {
        assertEquals(HardwareProgram.PASS, program(SHY, 0x0300, 0x10, 0xFF).run(10));
    }

    @Test
    void shaAbsoluteYStoresAAndXAloneWhenHaltedBeforeItsWrite() {
        assertEquals(HardwareProgram.PASS, program(SHA_ABY, 0x0300, 0x10, 0xFF).run(10));
    }

    @Test
    void tasStoresSAloneWhenHaltedBeforeItsWrite() {
        assertEquals(HardwareProgram.PASS, program(TAS, 0x0300, 0x10, 0xFF).run(10));
    }

    @Test
    void aPageCrossingStoreGoesToTheRegistersPageWhenHalted() {
        // $02F0 + $20: stored without a DMA as $07 & $03 at $0310, halted as $07 at $0710.
        assertEquals(HardwareProgram.PASS, program(SHX, 0x02F0, 0x20, 0x07).run(10));
    }
}
