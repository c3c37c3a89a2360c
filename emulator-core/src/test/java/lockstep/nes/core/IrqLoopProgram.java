package lockstep.nes.core;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.Ines;

/**
 * A program that holds /IRQ low for good (a DMC sample with its IRQ on, never acknowledged), so
 * the CPU takes an IRQ after every RTI, with the vertical-blank NMI on: interrupt sequences
 * make up most of its cycles, and the NMI meets every cycle of the IRQ's sequence over the
 * frames. RAM $10 counts main-loop turns, $11 IRQs, $12 NMIs.
 */
public final class IrqLoopProgram {
    private IrqLoopProgram() {
    }

    public static Cartridge cartridge() throws RomFormatException {
        String src = String.join("\n",
                ".org $8000",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  lda #0",
                "  sta $4012", // sample at $C000,
                "  sta $4013", // one byte long
                "  lda #$8F",
                "  sta $4010", // IRQ on, fastest rate
                "  lda #$10",
                "  sta $4015", // start: the byte is fetched, the sample ends, /IRQ goes low
                "  lda #$80",
                "  sta $2000", // NMI at vertical blank
                "  cli",
                "main:",
                "  inc $10",
                "  jmp main",
                "irq:",
                "  inc $11",
                "  rti",
                "nmi:",
                "  inc $12",
                "  rti",
                ".org $FFFA",
                ".word nmi, reset, irq",
                "");
        byte[] prg = Assembler.assemble(src).image(0x8000, 0x8000, 0xEA);
        return Cartridge.parse("interrupts.nes", Ines.nrom(prg, new byte[0x2000], true));
    }
}
