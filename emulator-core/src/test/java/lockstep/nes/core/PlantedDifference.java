package lockstep.nes.core;

import java.lang.reflect.Field;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.ppu.Ppu;

/**
 * Differences between two engines that heal within the first frame and that a chained stretch
 * ({@link Console#runChained}) can see through one of its folds only, one per fold it makes
 * besides the whole instructions' accesses: the accesses of the cycles it runs alone, the
 * accesses of DMA cycles, and the counted parts' term at instruction boundaries. Each is a
 * small NROM program (built here, so every cycle of it is known) whose engine B has one ROM
 * byte changed ({@link #plant}): a byte engine A never reads through any other path.
 *
 * <ul>
 * <li>{@link #SINGLE_CYCLE_READ}: after a delay loop, {@code BRK}. The opcode is fetched with
 *     the whole-instruction path, the rest of BRK runs one cycle at a time; its second cycle
 *     reads the padding byte after the opcode and drops it. B's padding byte differs: the two
 *     engines differ for one cycle (the open bus), then the push overwrites it. Only the access
 *     of that cycle, run alone, shows it.
 * <li>{@link #DMA_READ}: after a delay loop, {@code LDA #$80; STA $4014}: an OAM DMA of page
 *     $80, the program itself. B's byte $800E (OAM byte 14, sprite 3's attribute, not code)
 *     differs in bits 2-4, which OAM does not have: the DMA reads another value (the open bus,
 *     the DMA's data latch, the PPU's I/O latch differ for a cycle or two), OAM ends the same.
 *     Only the DMA cycle's access shows it; no instruction boundary falls inside the DMA.
 * <li>{@link #COUNTED_PARTS}: {@code LDA #$0A; STA $2001} (background on), then {@code BIT
 *     $2002; JMP} for ever: the polls catch the lazily stepped PPU up every 7 cycles. B's PPU
 *     reads its pattern tables from a copy whose byte 3 (tile 0, row 3, low plane; the power-on
 *     nametables are all tile 0) differs: on every eighth line from line 3 its fetch latches and
 *     shift registers differ from A's, and 8 to 16 dots later they hold the next row, the same
 *     in both. No CPU access differs (nothing reads CHR through $2007 and sprites are off, so no
 *     sprite-0 hit): only the counted parts' term at the instruction boundaries after a catch-up
 *     inside those lines shows it. (The picture differs too; it is output, not state.)
 * </ul>
 */
public enum PlantedDifference {
    SINGLE_CYCLE_READ {
        @Override
        byte[] program() {
            return prg(0x8000,
                    0xA2, 0x00,       // LDX #$00
                    0xCA,             // DEX          (256 times)
                    0xD0, 0xFD,       // BNE $8002
                    0x00, 0x00,       // BRK, its padding byte at $8006
                    0x4C, 0x07, 0x80); // (the BRK vector) JMP $8007
        }

        @Override
        int brkVector() {
            return 0x8007;
        }

        @Override
        public void plant(Console b) throws ReflectiveOperationException {
            patchPrg(b, 0x8006 - 0x8000, 0x01);
        }
    },
    DMA_READ {
        @Override
        byte[] program() {
            byte[] p = prg(0x8000,
                    0xA2, 0x00,        // LDX #$00
                    0xCA,              // DEX          (256 times)
                    0xD0, 0xFD,        // BNE $8002
                    0xA9, 0x80,        // LDA #$80
                    0x8D, 0x14, 0x40,  // STA $4014   (OAM DMA of $8000-$80FF)
                    0x4C, 0x0A, 0x80); // JMP $800A
            return p; // $800E: 0, sprite 3's attribute
        }

        @Override
        public void plant(Console b) throws ReflectiveOperationException {
            patchPrg(b, 0x800E - 0x8000, 0x1C);
        }
    },
    COUNTED_PARTS {
        @Override
        byte[] program() {
            return prg(0x8000,
                    0xA9, 0x0A,        // LDA #$0A    background on, in the left column too
                    0x8D, 0x01, 0x20,  // STA $2001
                    0x2C, 0x02, 0x20,  // BIT $2002   catches the PPU up
                    0x4C, 0x05, 0x80); // JMP $8005
        }

        @Override
        public void plant(Console b) throws ReflectiveOperationException {
            final int offset = 3;
            Field chrField = Mapper.class.getDeclaredField("chr");
            chrField.setAccessible(true);
            byte[] chr = ((byte[]) chrField.get(part(b, "mapper"))).clone();
            chr[offset] ^= (byte) 0xFF;
            chrField.set(part(b, "mapper"), chr);
            // The PPU fetches from the board's array directly (PpuBus#direct), held since it was built.
            Field ppuChr = Ppu.class.getDeclaredField("chrMem");
            ppuChr.setAccessible(true);
            ppuChr.set(part(b, "ppu"), chr);
        }
    };

    /** The program's PRG (32 KiB, at $8000). */
    abstract byte[] program();

    /** Where BRK (and IRQ) lead; the program's own loop at $8000 for those that have none. */
    int brkVector() {
        return 0x8000;
    }

    /** Changes engine B's ROM as this difference says (before it runs; its state stays A's). */
    public abstract void plant(Console b) throws ReflectiveOperationException;

    /** A fresh cartridge of this program (both engines of a pair run one cartridge). */
    public Cartridge cartridge() {
        byte[] prg = program();
        prg[0x7FFA] = 0x00; // NMI: $8000 (never taken: NMIs stay off)
        prg[0x7FFB] = (byte) 0x80;
        prg[0x7FFC] = 0x00; // reset: $8000
        prg[0x7FFD] = (byte) 0x80;
        prg[0x7FFE] = (byte) brkVector();
        prg[0x7FFF] = (byte) (brkVector() >> 8);
        try {
            return new Cartridge("planted-" + name().toLowerCase(java.util.Locale.ROOT) + ".nes", prg,
                    new byte[8192], 0, Mirroring.HORIZONTAL, false, 0, 0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** 32 KiB of zeros with {@code code} at CPU address {@code at}. */
    private static byte[] prg(int at, int... code) {
        byte[] prg = new byte[0x8000];
        for (int i = 0; i < code.length; i++) {
            prg[at - 0x8000 + i] = (byte) code[i];
        }
        return prg;
    }

    /** Engine B's PRG byte at {@code offset} XORed with {@code xor} (its board gets its own copy). */
    private static void patchPrg(Console b, int offset, int xor) throws ReflectiveOperationException {
        Field prgField = Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);
        byte[] prg = ((byte[]) prgField.get(part(b, "mapper"))).clone();
        prg[offset] ^= (byte) xor;
        prgField.set(part(b, "mapper"), prg);
    }

    /**
     * One of the console's parts, taken without its accessor ({@link Console#mapper} and
     * {@link Console#ppu} catch the PPU up, which would set B's representation apart from A's).
     */
    private static Object part(Console c, String name) throws ReflectiveOperationException {
        Field f = Console.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(c);
    }
}
