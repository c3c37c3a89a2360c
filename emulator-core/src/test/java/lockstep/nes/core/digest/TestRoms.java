package lockstep.nes.core.digest;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFormatException;

/** ROMs for the state tests: a tiny program built here, and the shared test ROMs. */
public final class TestRoms {
    private TestRoms() {
    }

    /**
     * A 16 KiB NROM program (8 KiB zero CHR-ROM): waits for vblank, enables NMI, then loops
     * counting in $00, reading controller 1 into $01, writing RAM $0300+X and PRG-RAM $6000;
     * its NMI counts in $10 and runs OAM DMA from page 3.
     */
    public static Cartridge tiny() {
        int[] code = {
            0x78, 0xD8, 0xA2, 0xFF, 0x9A,             // C000 SEI CLD LDX #$FF TXS
            0xAD, 0x02, 0x20, 0x10, 0xFB,             // C005 LDA $2002 BPL C005
            0xA9, 0x80, 0x8D, 0x00, 0x20,             // C00A LDA #$80 STA $2000
            0xE6, 0x00,                               // C00F INC $00
            0xA9, 0x01, 0x8D, 0x16, 0x40,             // C011 LDA #1 STA $4016
            0xA9, 0x00, 0x8D, 0x16, 0x40,             // C016 LDA #0 STA $4016
            0xAD, 0x16, 0x40, 0x29, 0x01,             // C01B LDA $4016 AND #1
            0x65, 0x01, 0x85, 0x01,                   // C020 ADC $01 STA $01
            0xA5, 0x00, 0xA6, 0x00,                   // C024 LDA $00 LDX $00
            0x9D, 0x00, 0x03, 0x8D, 0x00, 0x60,       // C028 STA $0300,X STA $6000
            0x4C, 0x0F, 0xC0,                         // C02E JMP C00F
            0xE6, 0x10, 0x48,                         // C031 NMI: INC $10 PHA
            0xA9, 0x03, 0x8D, 0x14, 0x40,             // C034 LDA #3 STA $4014
            0x68, 0x40,                               // C039 PLA RTI
            0x40,                                     // C03B IRQ: RTI
        };
        byte[] prg = new byte[16384];
        for (int i = 0; i < code.length; i++) {
            prg[i] = (byte) code[i];
        }
        vector(prg, 0x3FFA, 0xC031);
        vector(prg, 0x3FFC, 0xC000);
        vector(prg, 0x3FFE, 0xC03B);
        return new Cartridge("tiny.nes", prg, new byte[8192], 0, Mirroring.VERTICAL, false, 8192, 0);
    }

    private static void vector(byte[] prg, int at, int addr) {
        prg[at] = (byte) addr;
        prg[at + 1] = (byte) (addr >> 8);
    }

    public static Console console(Cartridge cart) {
        try {
            return Console.create(cart);
        } catch (RomFormatException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The shared ROM directory (nes-test-roms inside it), or null. */
    public static Path romsDir() {
        String dir = System.getProperty("lockstep.roms");
        if (dir == null || dir.isEmpty()) {
            dir = System.getenv("LOCKSTEP_ROMS");
        }
        if (dir == null || dir.isEmpty()) {
            return null;
        }
        Path p = Path.of(dir);
        return Files.isDirectory(p) ? p : null;
    }

    /** A shared test ROM by its path under nes-test-roms; skips (or fails when CI=true) if missing. */
    public static Cartridge shared(String relative) {
        Path dir = romsDir();
        Path rom = dir == null ? null : dir.resolve("nes-test-roms").resolve(relative);
        if (rom == null || !Files.isRegularFile(rom)) {
            String msg = "test ROM not found: " + relative + " (set -Dlockstep.roms or LOCKSTEP_ROMS)";
            if ("true".equals(System.getenv("CI"))) {
                fail(msg);
            }
            assumeTrue(false, msg);
        }
        try {
            return Cartridge.load(rom);
        } catch (RomFormatException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
