package lockstep.nes.core;

import java.lang.reflect.Field;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.ppu.Ppu;

/**
 * Differences between two engines that heal within the first frame and that a chained stretch
 * ({@link lockstep.nes.core.chain.ChainedRun}) can see through one of its folds only (but {@link #OAM_DMA_READ},
 * seen by two), one per fold it makes besides the whole instructions' accesses: the accesses of
 * the cycles it runs alone, the accesses of DMA cycles (never alone: every byte a DMA get leaves
 * on the bus is also held in the DMA's latch or the DMC's buffer, counted parts; a DMC fetch
 * that meets a controller register leaves the port's bits over the sample's, the same on the bus
 * and in the buffer), and the counted parts' term (after the
 * cycles that change it, which a stretch of whole instructions would not see if it folded it at
 * instruction boundaries only: {@link #PARTS_DURING_DMA}). Each is a
 * small NROM program (built here, so every cycle of it is known) whose engine B has one ROM
 * byte changed ({@link #plant}): a byte engine A never reads through any other path.
 * {@link #trace} steps one cycle by cycle to show what differs where.
 *
 * <ul>
 * <li>{@link #SINGLE_CYCLE_READ}: after a delay loop, {@code BRK}. The opcode is fetched with
 *     the whole-instruction path, the rest of BRK runs one cycle at a time; its second cycle
 *     reads the padding byte after the opcode and drops it. B's padding byte differs: the two
 *     engines differ for one cycle (the open bus), then the push overwrites it. Only the access
 *     of that cycle, run alone, shows it.
 * <li>{@link #OAM_DMA_READ}: after a delay loop, {@code LDA #$80; STA $4014}: an OAM DMA of
 *     page $80, the program itself. B's byte $800E (OAM byte 14, sprite 3's attribute, not
 *     code) differs in bits 2-4, which OAM does not have: the DMA reads another value (the open
 *     bus, the DMA's data latch, the PPU's I/O latch differ for a cycle or two), OAM ends the
 *     same. No instruction boundary falls inside the DMA: the DMA cycles' accesses show it, and
 *     the counted parts after those cycles (the DMA's latch).
 * <li>{@link #COUNTED_PARTS}: {@code LDA #$0A; STA $2001} (background on), then {@code BIT
 *     $2002; JMP} for ever: the polls catch the lazily stepped PPU up every 7 cycles. B's PPU
 *     reads its pattern tables from a copy whose byte 3 (tile 0, row 3, low plane; the power-on
 *     nametables are all tile 0) differs: on every eighth line from line 3 its fetch latches and
 *     shift registers differ from A's, and 8 to 16 dots later they hold the next row, the same
 *     in both. No CPU access differs (nothing reads CHR through $2007 and sprites are off, so no
 *     sprite-0 hit): only the counted parts' term, after the polls inside those lines, shows
 *     it (and at the instruction boundaries after them). (The picture differs too; it is
 *     output, not state.)
 * <li>{@link #PARTS_DURING_DMA}: background on (patterns at $1000, the sprites' at $0000), then
 *     at once an OAM DMA of page $02, which runs while lines 0 to 4 are drawn: every $2004 write
 *     catches the PPU up. B's byte $1003 (the background's tile 0, row 3) differs: the PPU's
 *     latches, shift registers and last pixel colours differ from the end of line 2 to the start
 *     of line 4, all inside the DMA; then the program spins on a JMP that never catches the PPU
 *     up, so the next rows 3 are never represented. No access differs and no instruction
 *     boundary sees it: only the counted parts after the DMA cycles can.
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
    OAM_DMA_READ {
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
            patchChr(b, 3);
        }
    },
    PARTS_DURING_DMA {
        @Override
        byte[] program() {
            return prg(0x8000,
                    0xA9, 0x10,        // LDA #$10
                    0x8D, 0x00, 0x20,  // STA $2000   background patterns at $1000, sprites' at $0000
                    0xA9, 0x0A,        // LDA #$0A
                    0x8D, 0x01, 0x20,  // STA $2001   background on
                    0xA9, 0x02,        // LDA #$02
                    0x8D, 0x14, 0x40,  // STA $4014   OAM DMA (while rendering: OAM stays, OAMADDR moves)
                    0x4C, 0x0F, 0x80); // JMP $800F
        }

        @Override
        public void plant(Console b) throws ReflectiveOperationException {
            patchChr(b, 0x1003);
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
        return cartridge(name(), program(), brkVector());
    }

    static Cartridge cartridge(String name, byte[] prg, int brkVector) {
        prg[0x7FFA] = 0x00; // NMI: $8000 (never taken: NMIs stay off)
        prg[0x7FFB] = (byte) 0x80;
        prg[0x7FFC] = 0x00; // reset: $8000
        prg[0x7FFD] = (byte) 0x80;
        prg[0x7FFE] = (byte) brkVector;
        prg[0x7FFF] = (byte) (brkVector >> 8);
        try {
            return new Cartridge("planted-" + name.toLowerCase(java.util.Locale.ROOT) + ".nes", prg,
                    new byte[8192], 0, Mirroring.HORIZONTAL, false, 0, 0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * This difference stepped cycle by cycle through its first frame: the first and last cycles
     * after which the engines' representations differ, how many cycles' bus accesses (address,
     * direction, the open bus after it) differ, DMA cycles and the others apart, and at how
     * many instruction boundaries, as a chained stretch sees them (the CPU at an opcode fetch
     * the DMA does not take), the representations differ.
     */
    public record Trace(long first, long last, long frameEnd, int accesses, int dmaAccesses, int boundaries) {
    }

    public Trace trace() throws Exception {
        return trace(cartridge());
    }

    Trace trace(Cartridge cart) throws Exception {
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        plant(b);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        long first = -1;
        long last = -1;
        int accesses = 0;
        int dmaAccesses = 0;
        int boundaries = 0;
        while (a.frameAfterCycle() == 0) {
            if (a.cpu().atInstructionStart() && !a.dma().wantsReadCycle() && da.differsFrom(db)) {
                boundaries++;
            }
            boolean dma = !a.cpu().isWrite() && a.dma().wantsReadCycle();
            long access = a.cpu().address() | (a.cpu().isWrite() ? 1L << 24 : 0);
            long accessB = b.cpu().address() | (b.cpu().isWrite() ? 1L << 24 : 0);
            a.runCycle();
            b.runCycle();
            if ((access | (long) a.openBus() << 32) != (accessB | (long) b.openBus() << 32)) {
                if (dma) {
                    dmaAccesses++;
                } else {
                    accesses++;
                }
            }
            if (da.differsFrom(db)) {
                first = first < 0 ? a.cycles() : first;
                last = a.cycles();
            }
        }
        return new Trace(first, last, a.cycles(), accesses, dmaAccesses, boundaries);
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

    /** Engine B's CHR byte at {@code offset} inverted, for its board and the PPU that reads it directly. */
    private static void patchChr(Console b, int offset) throws ReflectiveOperationException {
        Field chrField = Mapper.class.getDeclaredField("chr");
        chrField.setAccessible(true);
        byte[] chr = ((byte[]) chrField.get(part(b, "mapper"))).clone();
        chr[offset] ^= (byte) 0xFF;
        chrField.set(part(b, "mapper"), chr);
        // The PPU fetches from the board's array directly (PpuBus#direct), held by its render bus
        // since it was built.
        Field renderBus = Ppu.class.getDeclaredField("renderBus");
        renderBus.setAccessible(true);
        Object bus = renderBus.get(part(b, "ppu"));
        Field ppuChr = bus.getClass().getDeclaredField("chr");
        ppuChr.setAccessible(true);
        ppuChr.set(bus, chr);
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
