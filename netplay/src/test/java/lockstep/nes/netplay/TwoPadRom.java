package lockstep.nes.netplay;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.Ines;

/**
 * A small NROM program for netplay's tests: every NMI it reads both controllers and folds their
 * buttons into RAM ($12/$13 this frame's pads, $14 a running sum of pad 1, $15 a running mix of
 * pad 2, $16 a frame count, $0200+n / $0300+n the pads of frame n mod 256), so a frame run
 * with another input on either side ends in another state. Between NMIs it waits in a JMP to
 * itself, which the engine counts rather than runs: cheap frames.
 */
final class TwoPadRom {
    private TwoPadRom() {
    }

    static final String SOURCE = """
            .org $C000
            reset:
                    sei
                    cld
                    ldx #$FF
                    txs
                    lda #$00
                    sta $2001
            wait1:  bit $2002
                    bpl wait1
            wait2:  bit $2002
                    bpl wait2
                    lda #$80
                    sta $2000
            loop:   jmp loop
            nmi:    pha
                    txa
                    pha
                    lda #1
                    sta $4016
                    lda #0
                    sta $4016
                    ldx #8
            read:   lda $4016
                    lsr a
                    rol $12
                    lda $4017
                    lsr a
                    rol $13
                    dex
                    bne read
                    clc
                    lda $14
                    adc $12
                    sta $14
                    lda $15
                    asl a
                    adc #0
                    eor $13
                    sta $15
                    inc $16
                    ldx $16
                    lda $12
                    sta $0200,x
                    lda $13
                    sta $0300,x
                    pla
                    tax
                    pla
                    rti
            irq:    rti
            .org $FFFA
                    .word nmi, reset, irq
            """;

    static Cartridge cartridge() {
        try {
            Assembler.Program p = Assembler.assemble(SOURCE);
            return Cartridge.parse("two-pads.nes", Ines.nrom(p.image(0xC000, 0x4000, 0xFF), new byte[8192], false));
        } catch (RomFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The address of RAM byte {@code name} ($14 the pad-1 sum, $15 the pad-2 mix). */
    static final int PAD1_SUM = 0x14;
}
